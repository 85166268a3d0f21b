extension Task where Failure == Never {
  /// A task with a name where the platform names tasks (Swift 6.2 runtimes), so that a debugger or a task dump
  /// shows what the library started it for; a plain task elsewhere.
  ///
  /// `@_inheritActorContext`, as on `Task.init`: an operation that captures an `isolated` parameter runs on that
  /// actor, which is how the main-actor bindings run on the caller's actor.
  @usableFromInline @discardableResult
  init(
    named name: String?,
    priority: TaskPriority? = nil,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      self.init(name: name, priority: priority, operation: operation)
    } else {
      self.init(priority: priority, operation: operation)
    }
  }
}

extension Task where Failure == any Error {
  /// A throwing task with a name where the platform names tasks; see the non-throwing form.
  @usableFromInline @discardableResult
  init(
    named name: String?,
    priority: TaskPriority? = nil,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      self.init(name: name, priority: priority, operation: operation)
    } else {
      self.init(priority: priority, operation: operation)
    }
  }
}

// RxSwift's generating factories: `Observable.range`, `generate` and `repeatElement`. Each run computes its elements
// as its consumer asks (a `for await` loop reads them one at a time, without a task; a hot graph's pump reads them
// into the graph), so a consumer that stops early stops the computation too.

extension Signal {
  /// A signal that sends `count` consecutive integers from `start`, then finishes (RxSwift `Observable.range`).
  ///
  /// `start + count - 1` may be the type's largest value: `Signal<Int, Never>.range(start: .max, count: 1)` sends
  /// `Int.max`.
  ///
  /// ```swift
  /// for await page in Signal<Int, Never>.range(start: 1, count: 3) { await load(page) }   // 1, 2, 3
  /// ```
  /// - Parameters:
  ///   - start: the first integer.
  ///   - count: how many integers; not negative, and `start + count - 1` must be representable.
  @inlinable public static func range(start: Element, count: Int) -> Signal where Element: BinaryInteger {
    precondition(count >= 0, "Signal.range(start:count:) needs a count of 0 or more, not \(count)")
    return Signal(
      cold: .synchronous {
        let sent = ClosureState(0)
        return { () throws(Failure) -> Element? in
          guard sent.value < count else { return nil }
          defer { sent.value += 1 }
          return start + Element(sent.value)
        }
      })
  }

  /// A signal that sends `initial`, then each state `iterate` makes from the last, while `condition` holds (RxSwift
  /// `Observable.generate`): the loop `for var s = initial; condition(s); s = iterate(s)` as a signal.
  ///
  /// `iterate` is called only when the consumer asks for the next element: a consumer that stops after four
  /// elements has called it three times. A throw from either closure fails the signal with that error.
  ///
  /// ```swift
  /// let powers = Signal<Int, Never>.generate(initial: 1, condition: { $0 < 1_000 }, iterate: { $0 * 2 })
  /// ```
  /// - Parameters:
  ///   - initial: the first state.
  ///   - condition: whether a state is sent; the signal finishes at the first state for which it is `false`.
  ///   - iterate: the next state.
  @inlinable public static func generate(
    initial: Element,
    condition: @escaping @Sendable (Element) throws(Failure) -> Bool,
    iterate: @escaping @Sendable (Element) throws(Failure) -> Element
  ) -> Signal {
    Signal(
      cold: .synchronous {
        let state = ClosureState<(value: Element, started: Bool, ended: Bool)>((initial, false, false))
        return { () throws(Failure) -> Element? in
          guard !state.value.ended else { return nil }
          do throws(Failure) {
            if state.value.started {
              state.value.value = try iterate(state.value.value)
            } else {
              state.value.started = true
            }
            guard try condition(state.value.value) else {
              state.value.ended = true
              return nil
            }
            return state.value.value
          } catch {
            state.value.ended = true
            throw error
          }
        }
      })
  }

  /// A signal that sends `element` again and again, `count` times or without end (RxSwift
  /// `Observable.repeatElement`); a consumer that stops ends it.
  ///
  /// ```swift
  /// let placeholders = Signal<String, Never>.repeatElement("…", count: 3)
  /// ```
  /// - Parameters:
  ///   - element: what to send.
  ///   - count: how many times; `nil` (the default) for as long as a consumer reads. Not negative.
  @inlinable public static func repeatElement(_ element: Element, count: Int? = nil) -> Signal {
    precondition((count ?? 0) >= 0, "Signal.repeatElement(_:count:) needs a count of 0 or more, not \(count ?? 0)")
    return Signal(
      cold: .synchronous {
        let sent = ClosureState(0)
        return { () throws(Failure) -> Element? in
          if let count {
            guard sent.value < count else { return nil }
            sent.value += 1
          }
          return element
        }
      })
  }
}

extension ColdRecipe {
  /// A run computed by a synchronous read (``ColdSyncNext``), one element per read: its consumer reads it directly;
  /// in a graph a pump task started in place reads it, one element at a time, checking for cancellation between
  /// elements and waiting while the consumer that paces it is behind. Its first ``ColdPacing/limit`` elements are
  /// sent before the subscribing call returns.
  ///
  /// - Parameters:
  ///   - yields: past the elements sent in place, the pump yields between elements, so that an endless source
  ///     (`repeatElement`) lets the others run; otherwise once per ``ColdPacing/limit`` elements.
  ///   - makeNext: makes one run's read.
  @inlinable package static func synchronous(
    yields: Bool = true, _ makeNext: @escaping @Sendable () -> ColdSyncNext<Element, Failure>
  ) -> ColdRecipe {
    ColdRecipe(
      node: { start in
        .source(start, origin: NodeOrigin(.pump)) { outlet in
          let next = Handoff(makeNext())
          let task = Task(pumpNamed: start.pumpName) {
            guard let next = next.take() else { return }
            // Started in place: the first elements (up to the pacing limit) are sent inside the subscribing call, as
            // RxSwift's `from` and `generate` send inside `subscribe`; past them the pump yields, so that a long or
            // endless source does not hold the connection (and every registration waiting for it) until it ends.
            var sent = 0
            do throws(Failure) {
              while let element = try next() {
                guard !Task.isCancelled else { return }
                outlet.node.send(element)
                if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
                sent &+= 1
                if sent >= ColdPacing.limit && (yields || sent % ColdPacing.limit == 0) { await Task.yield() }
              }
              outlet.node.terminate(.finished)
            } catch {
              outlet.node.terminate(.failed(error))
            }
          }
          return { task.cancel() }
        }
      },
      synchronousNext: makeNext)
  }
}

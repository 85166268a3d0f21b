// The floor under SignupViewModel.swift's `counts` chain: the same chain against the plainest API Swift allows (one
// concrete type, one method per operator, no `Sendable`, no defaulted arguments, no protocol, no `AsyncSequence` and
// so none of the standard library's `map` forms). Whatever the library declares, its `counts` cannot type-check
// faster than this: the cost is the untyped closures (`$0.count`, a literal seed with `+`, `-` on a tuple), not the
// overloads. `python3 Scripts/typecheck-probe.py` prints it beside the real chain. Not built into anything.

struct PlainSignal<Element, Failure: Error> {
  func map<T>(_ transform: @escaping (Element) -> T) -> PlainSignal<T, Failure> { fatalError() }
  func scan<R>(_ initial: R, _ next: @escaping (R, Element) -> R) -> PlainSignal<R, Failure> { fatalError() }
  func combinePrevious() -> PlainSignal<(Element, Element), Failure> { fatalError() }
}

func counts(username: PlainSignal<String, Never>) -> PlainSignal<Int, Never> {
  let counts = username.map { $0.count }.scan(0) { $0 + $1 }.combinePrevious().map { $0.1 - $0.0 }
  return counts
}

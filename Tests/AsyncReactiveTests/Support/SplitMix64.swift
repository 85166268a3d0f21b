/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), shared by the tests
/// that draw random points: a stress run can be replayed from the seed it prints.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let point = Int.random(in: 0..<10, using: &random)
/// ```
struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A random integer in `range`.
  mutating func int(in range: Range<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// A random Boolean.
  mutating func bool() -> Bool {
    Bool.random(using: &self)
  }
}

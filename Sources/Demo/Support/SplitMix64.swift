/// A small, seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64), so that a `--seed` gives
/// the same latencies on every machine and every run. The standard library's generator cannot be seeded.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let latency = 40 + 10 * Int(random.next() % 12)   // the same number for seed 42, always
/// ```
struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A 64-bit FNV-1a hash of `text`: stable across processes, unlike `String.hashValue`.
  static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    return hash
  }
}

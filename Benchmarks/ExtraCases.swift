/// Cases for the operators and the command, added as those land.
func extraCases(scale: Int) -> [BenchmarkCase] {
  []
}

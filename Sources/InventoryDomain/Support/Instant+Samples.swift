extension Instant {
    /// Instants for property tests, replayable from `seed`: both ends of ``range``, the epoch and its neighbours, then
    /// `count` more spread over the whole range, over 1900–1970 and over a shop's own years, their milliseconds
    /// running through every value .000–.999 in turn.
    public static func samples(count: Int, seed: UInt64) -> [Instant] {
        var random = SeededRandom(seed: seed)
        var result = [self.range.lowerBound, self.range.upperBound, Instant(milliseconds: 0), Instant(milliseconds: -1), Instant(milliseconds: 1)]
        for index in 0..<count {
            let second: Int64
            switch index % 3 {
            case 0: second = Int64.random(in: self.range.lowerBound.seconds...self.range.upperBound.seconds, using: &random)
            case 1: second = Int64.random(in: -2_208_988_800...0, using: &random)  // 1900 to 1970
            default: second = Int64.random(in: 1_700_000_000...1_900_000_000, using: &random)  // a shop's own years
            }
            result.append(Instant(milliseconds: second * 1000 + Int64(index % 1000)))
        }
        return result
    }
}

/// A month as RFC 7529 numbers it in BYMONTH: `5` or the leap month `5L`
/// (the month inserted after month 5 in a leap year: Adar I in the Hebrew
/// calendar, a doubled month in the Chinese one).
public struct RscaleMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: Int
    public var isLeap: Bool

    public init(_ number: Int, leap: Bool = false) {
        self.number = number
        self.isLeap = leap
    }

    /// Reads `5` or `5L` (1 to 13, as RFC 7529 allows); nil otherwise.
    public init?(parsing text: some StringProtocol) {
        let leap = text.hasSuffix("L") || text.hasSuffix("l")
        guard let number = Int(leap ? text.dropLast() : text[...]), (1...13).contains(number) else { return nil }
        self.init(number, leap: leap)
    }

    public var description: String { "\(number)\(isLeap ? "L" : "")" }

    /// Leap month 5L comes after month 5.
    public static func < (lhs: RscaleMonth, rhs: RscaleMonth) -> Bool {
        (lhs.number, lhs.isLeap ? 1 : 0) < (rhs.number, rhs.isLeap ? 1 : 0)
    }
}

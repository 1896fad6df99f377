/// A wall-clock date and time with no zone attached: what the text of a
/// DATE-TIME says before a TZID, `Z` or the viewer's zone gives it meaning.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970-01-01T00:00:00 reading this wall time as if it were UTC.
    public var wallSeconds: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(wallSeconds: Int64) {
        let days = Int((wallSeconds >= 0 ? wallSeconds : wallSeconds - 86_399) / 86_400)
        let rest = Int(wallSeconds - Int64(days) * 86_400)
        self.init(date: CivilDate(daysSinceEpoch: days), hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    public var isValid: Bool {
        // Second 60 is a leap second; RFC 5545 allows it and we read it as :59.
        date.isValid && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.wallSeconds < rhs.wallSeconds }

    /// `YYYYMMDDTHHMMSS`.
    public var basic: String { date.basic + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) }
    /// `YYYY-MM-DDTHH:MM:SS`.
    public var iso: String { date.iso + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) }
    public var description: String { iso }

    /// Parses `YYYYMMDDTHHMMSS` (without a trailing `Z`).
    public init?(parsing text: some StringProtocol) {
        let chars = Array(text)
        guard chars.count == 15, chars[8] == "T" || chars[8] == "t",
              chars[0..<8].allSatisfy(\.isASCIIDigit), chars[9..<15].allSatisfy(\.isASCIIDigit),
              let date = CivilDate(parsing: String(chars[0..<8])) else { return nil }
        let value = { (range: Range<Int>) in Int(String(chars[range]))! }
        self.init(date: date, hour: value(9..<11), minute: value(11..<13), second: min(value(13..<15), 60))
        guard isValid else { return nil }
        if second == 60 { second = 59 }
    }
}

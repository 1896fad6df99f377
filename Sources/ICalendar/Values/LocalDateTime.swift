/// A wall-clock date and time with no zone attached: what the text of a
/// DATE-TIME says before a TZID, `Z` or the viewer's zone gives it meaning.
///
/// 12 bytes (see `CivilDate` for why): the time fields are stored as Int8,
/// clamped to -128…127, which holds every wall time and every intermediate
/// value tminus computes.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: CivilDate
    private var storedHour: Int8
    private var storedMinute: Int8
    private var storedSecond: Int8

    public var hour: Int {
        get { Int(storedHour) }
        set { storedHour = Int8(clamping: newValue) }
    }
    public var minute: Int {
        get { Int(storedMinute) }
        set { storedMinute = Int8(clamping: newValue) }
    }
    public var second: Int {
        get { Int(storedSecond) }
        set { storedSecond = Int8(clamping: newValue) }
    }

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        storedHour = Int8(clamping: hour)
        storedMinute = Int8(clamping: minute)
        storedSecond = Int8(clamping: second)
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
        let bytes = text.utf8
        guard bytes.count == 15 else { return nil }
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 {
                guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") else { return nil }
                continue
            }
            guard ASCII.isDigit(byte) else { return nil }
            let digit = Int(byte &- 48)
            switch offset {
            case 0..<4: year = year * 10 + digit
            case 4..<6: month = month * 10 + digit
            case 6..<8: day = day * 10 + digit
            case 9..<11: hour = hour * 10 + digit
            case 11..<13: minute = minute * 10 + digit
            default: second = second * 10 + digit
            }
        }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: min(second, 60))
        guard isValid else { return nil }
        if self.second == 60 { self.second = 59 }
    }
}

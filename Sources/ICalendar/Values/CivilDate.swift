/// A calendar date with no time and no zone (`VALUE=DATE`).
///
/// Stored in 8 bytes rather than three Ints (24): a compiled feed keeps hundreds
/// of thousands of dates (occurrences, countdown-calendar days), and every
/// date-time value embeds one. The Int API is unchanged; values outside the
/// stored ranges are clamped, never trapped (no real date comes near them).
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    private var storedYear: Int32
    private var storedMonth: Int16
    private var storedDay: Int16

    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int32(clamping: newValue) }
    }
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = Int16(clamping: newValue) }
    }
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = Int16(clamping: newValue) }
    }

    public init(year: Int, month: Int, day: Int) {
        storedYear = Int32(clamping: year)
        storedMonth = Int16(clamping: month)
        storedDay = Int16(clamping: day)
    }

    public var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month) && (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (proleptic Gregorian), from Howard Hinnant's algorithm.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 11) % 7 }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    /// `YYYYMMDD`, the iCalendar form.
    public var basic: String { pad(year, 4) + pad(month, 2) + pad(day, 2) }
    /// `YYYY-MM-DD`, the ISO 8601 extended form.
    public var iso: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
    public var description: String { iso }

    /// Parses `YYYYMMDD` or `YYYY-MM-DD`.
    public init?(parsing text: some StringProtocol) {
        var fields = (year: 0, month: 0, day: 0), digits = 0, length = 0
        for byte in text.utf8 {
            length += 1
            guard length <= 10 else { return nil }
            if byte == ASCII.dash { continue }
            guard ASCII.isDigit(byte) else { return nil }
            let digit = Int(byte &- 48)
            switch digits {
            case 0..<4: fields.year = fields.year * 10 + digit
            case 4..<6: fields.month = fields.month * 10 + digit
            case 6..<8: fields.day = fields.day * 10 + digit
            default: return nil
            }
            digits += 1
        }
        guard digits == 8, length == 8 || length == 10 else { return nil }
        self.init(year: fields.year, month: fields.month, day: fields.day)
        guard isValid else { return nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CivilDate(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date: \(text)")
        }
        self = date
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    return value < 0 ? "-" + padded : padded
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

import ICalendar

/// How a countdown repeats. Presets are what people pick in an app; each maps to
/// a plain RRULE and is recognised back from one. Anything else stays a raw rule.
public enum Repeat: Sendable, Hashable {
    public enum Unit: String, Sendable, Hashable, CaseIterable, Codable {
        case day, week, month, year
        var frequency: String {
            switch self { case .day: "DAILY"; case .week: "WEEKLY"; case .month: "MONTHLY"; case .year: "YEARLY" }
        }
    }

    case none
    /// Every `interval` days, weeks, months or years. `clamp` moves the 29th–31st
    /// (and 29 February) to the month's last day instead of skipping, as RFC 5545 would.
    case every(interval: Int, unit: Unit, clamp: Bool)
    /// The `ordinal`-th weekday of the month (`-1` is the last): "last Friday".
    case nthWeekday(ordinal: Int, weekday: Weekday, interval: Int)
    case lastDayOfMonth(interval: Int)
    /// An RRULE that is not a preset, kept exactly.
    case rule(String)

    public static let daily = Repeat.every(interval: 1, unit: .day, clamp: false)
    public static let weekly = Repeat.every(interval: 1, unit: .week, clamp: false)
    public static let monthly = Repeat.every(interval: 1, unit: .month, clamp: false)
    public static let yearly = Repeat.every(interval: 1, unit: .year, clamp: false)

    /// The RRULE for a series starting on `start`, or nil for `.none`.
    public func rrule(startingOn start: CivilDate) -> String? {
        func withInterval(_ base: String, _ interval: Int) -> String { interval > 1 ? base + ";INTERVAL=\(interval)" : base }
        switch self {
        case .none: return nil
        case .rule(let text): return text
        case .every(let interval, .month, true) where start.day > 28:
            let days = (28...start.day).map(String.init).joined(separator: ",")
            return withInterval("FREQ=MONTHLY;BYMONTHDAY=\(days);BYSETPOS=-1", interval)
        case .every(let interval, .year, true) where start.month == 2 && start.day == 29:
            return withInterval("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", interval)
        case .every(let interval, let unit, _):
            return withInterval("FREQ=\(unit.frequency)", interval)
        case .nthWeekday(let ordinal, let weekday, let interval):
            return withInterval("FREQ=MONTHLY;BYDAY=\(ordinal)\(weekday.code)", interval)
        case .lastDayOfMonth(let interval):
            return withInterval("FREQ=MONTHLY;BYMONTHDAY=-1", interval)
        }
    }

    /// Recognises a preset in an RRULE written for a series starting on `start`.
    public init(rrule text: String, startingOn start: CivilDate) {
        guard let rule = try? RecurrenceRule(parsing: text) else { self = .rule(text); return }
        let keys = Set(rule.parts.map(\.key)).subtracting(["FREQ", "INTERVAL"])
        let interval = rule.interval
        let unit = Unit.allCases.first { $0.frequency == rule.frequency.rawValue }
        switch (unit, keys) {
        case (let unit?, []):
            self = .every(interval: interval, unit: unit, clamp: false)
        case (.month?, ["BYMONTHDAY"]) where rule.value("BYMONTHDAY") == "-1":
            self = .lastDayOfMonth(interval: interval)
        case (.month?, ["BYDAY"]):
            if let (ordinal, weekday) = Weekday.ordinal(rule.value("BYDAY") ?? ""), ordinal != 0 {
                self = .nthWeekday(ordinal: ordinal, weekday: weekday, interval: interval)
            } else { self = .rule(text) }
        default:
            let candidate = Repeat.every(interval: interval, unit: unit ?? .day, clamp: true)
            let normalized = candidate.rrule(startingOn: start).flatMap { try? RecurrenceRule(parsing: $0) }
            self = normalized.map { Set($0.parts) == Set(rule.parts) } == true && start.day > 28 ? candidate : .rule(text)
        }
    }

    public var isRepeating: Bool { self != .none }

    /// Yearly series number their occurrences (ages, anniversaries).
    public var yearlyInterval: Int? {
        switch self {
        case .every(let interval, .year, _): interval
        case .rule(let text): (try? RecurrenceRule(parsing: text)).flatMap { $0.frequency == .yearly ? $0.interval : nil }
        default: nil
        }
    }
}

/// A day of the week as RRULE spells it.
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Codable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    public var code: String { ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][rawValue] }

    public init?(code: String) {
        guard let day = Weekday.allCases.first(where: { $0.code == code.uppercased() }) else { return nil }
        self = day
    }

    /// Splits `-1FR` into (-1, .friday).
    static func ordinal(_ text: String) -> (Int, Weekday)? {
        guard text.count > 2, let day = Weekday(code: String(text.suffix(2))), let number = Int(text.dropLast(2)),
              (1...5).contains(abs(number)) else { return nil }
        return (number, day)
    }
}

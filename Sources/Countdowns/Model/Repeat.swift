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
    /// Yearly on the same date of another calendar (RFC 7529 RSCALE): Chinese
    /// New Year, a Hebrew birthday. See `calendarYearlyRule`.
    case calendarYearly(RscaleCalendar)
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
        case .calendarYearly(let calendar):
            return Self.calendarYearlyRule(calendar)
        }
    }

    /// The preset's rule: a date the year lacks (the 30th of a short month, a
    /// leap month) moves to the day before, as Chinese and Islamic birthdays
    /// are kept, except in the Hebrew calendar, where it moves forward: Adar I
    /// to Adar, 30 Heshvan to 1 Kislev.
    static func calendarYearlyRule(_ calendar: RscaleCalendar) -> String {
        "RSCALE=\(calendar.name);FREQ=YEARLY;SKIP=\(calendar.name == "HEBREW" ? "FORWARD" : "BACKWARD")"
    }

    /// Recognises a preset in an RRULE written for a series starting on `start`.
    public init(rrule text: String, startingOn start: CivilDate) {
        guard let rule = try? RecurrenceRule(parsing: text) else { self = .rule(text); return }
        let keys = Set(rule.parts.map(\.key)).subtracting(["FREQ", "INTERVAL"])
        let interval = rule.interval
        let unit = Unit.allCases.first { $0.frequency == rule.frequency.rawValue }
        if let calendar = rule.value("RSCALE").flatMap(RscaleCalendar.init(named:)), calendar.name != "GREGORIAN",
           Set(rule.parts) == Set((try? RecurrenceRule(parsing: Self.calendarYearlyRule(calendar)))?.parts ?? []) {
            self = .calendarYearly(calendar)
            return
        }
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

    /// An RFC 7529 rule (RSCALE, GREGORIAN with SKIP included), which many
    /// readers refuse (`OtherCalendarDates` spells it out for them).
    public var isRscale: Bool {
        switch self {
        case .calendarYearly: true
        case .rule(let text): Self.isRscale(text)
        default: false
        }
    }

    /// Whether an RRULE's text is an RFC 7529 rule: the one test for a rule as a countdown keeps it and as a calendar writes it.
    public static func isRscale(_ rule: String) -> Bool { rule.uppercased().contains("RSCALE=") }

    /// The calendar of a repeat in another calendar (RSCALE); nil for Gregorian.
    public var calendar: RscaleCalendar? {
        switch self {
        case .calendarYearly(let calendar): calendar
        case .rule(let text): (try? RecurrenceRule(parsing: text)).flatMap(Self.calendar(of:))
        default: nil
        }
    }

    private static func calendar(of rule: RecurrenceRule) -> RscaleCalendar? {
        rule.value("RSCALE").flatMap(RscaleCalendar.init(named:)).flatMap { $0.name == "GREGORIAN" ? nil : $0 }
    }

    /// How a yearly series numbers its occurrences (ages, anniversaries); nil
    /// for other repeats. A raw rule is parsed once here.
    public var yearNumbering: YearNumbering? {
        switch self {
        case .every(let interval, .year, _): return YearNumbering(interval: interval, calendar: nil)
        case .calendarYearly(let calendar): return YearNumbering(interval: 1, calendar: calendar)
        case .rule(let text):
            guard let rule = try? RecurrenceRule(parsing: text), rule.frequency == .yearly else { return nil }
            return YearNumbering(interval: rule.interval, calendar: Self.calendar(of: rule))
        default: return nil
        }
    }

    /// `yearNumbering`'s number for one occurrence; nil for other repeats and before the start.
    public func occurrenceNumber(on date: CivilDate, from start: CivilDate) -> Int? {
        yearNumbering?.number(on: date, from: start)
    }

    public var yearlyInterval: Int? { yearNumbering?.interval }
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

/// A Gregorian RRULE's parts read once as numbers, with RFC 5545's defaults
/// from DTSTART filled in, for `GregorianRuleExpander`.
///
/// Which BYxxx parts expand a period and which limit it follows RFC 5545
/// §3.3.10's table (docs/icalendar.md lists it as tminus reads it): parts
/// finer than FREQ expand, parts as fine or coarser limit; BYMONTHDAY and
/// BYDAY expand a YEARLY or MONTHLY rule and BYYEARDAY a YEARLY one.
struct RuleParts: Sendable {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    /// COUNT, capped at `GregorianRuleExpander.maxCount`.
    let count: Int?
    /// The last wall time an instance may have (UNTIL, inclusive; a DATE UNTIL is its whole day).
    let until: LocalDateTime?
    /// WKST, 0 = Sunday.
    let weekStart: Int
    let months: Set<Int>
    /// BYMONTHDAY, positive and negative apart (negative counts from the month's end).
    let monthDays: Set<Int>
    let yearDays: Set<Int>
    let weekNumbers: Set<Int>
    /// BYDAY without a number, 0 = Sunday.
    let weekdays: Set<Int>
    /// BYDAY with a number: the nth such weekday of the month (of the year in a
    /// YEARLY rule without BYMONTH), negative from its end.
    let numberedWeekdays: [(ordinal: Int, weekday: Int)]
    /// BYHOUR, BYMINUTE, BYSECOND as given (nil when absent), sorted.
    let hours: [Int]?
    let minutes: [Int]?
    let seconds: [Int]?
    let setPositions: [Int]

    static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Nil for a rule this cannot read (RSCALE, a value out of range): `RecurrenceRule`
    /// refuses those before they get here, so nil is a bound, not a path.
    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        guard rule.value("RSCALE") == nil else { return nil }
        frequency = rule.frequency
        interval = rule.interval
        guard interval >= 1 else { return nil }
        count = rule.count.map { min($0, GregorianRuleExpander.maxCount) }
        if let text = rule.value("UNTIL") {
            guard let value = DateTimeValue(text: text, tzid: nil, valueType: nil) else { return nil }
            until = value.isAllDay || isDate ? LocalDateTime(date: value.civilDate, hour: 23, minute: 59, second: 59) : value.local
        } else {
            until = nil
        }
        guard let weekStart = Self.weekdayCodes.firstIndex(of: rule.value("WKST") ?? "MO") else { return nil }
        self.weekStart = weekStart
        func numbers(_ key: String, _ range: ClosedRange<Int>, signed: Bool) -> Set<Int>? {
            let list = rule.list(key)
            let values = list.compactMap { Int($0.hasPrefix("+") ? String($0.dropFirst()) : $0) }
            guard values.count == list.count, values.allSatisfy({ range.contains(abs($0)) && (signed || $0 >= 0) }) else { return nil }
            return Set(values)
        }
        guard let months = numbers("BYMONTH", 1...12, signed: false),
              let monthDays = numbers("BYMONTHDAY", 1...31, signed: true),
              let yearDays = numbers("BYYEARDAY", 1...366, signed: true),
              let weekNumbers = numbers("BYWEEKNO", 1...53, signed: true),
              let setPositions = numbers("BYSETPOS", 1...366, signed: true),
              let hours = numbers("BYHOUR", 0...23, signed: false),
              let minutes = numbers("BYMINUTE", 0...59, signed: false),
              let seconds = numbers("BYSECOND", 0...60, signed: false) else { return nil }
        var plain = Set<Int>()
        var numbered: [(ordinal: Int, weekday: Int)] = []
        for item in rule.list("BYDAY") {
            guard item.count >= 2, let weekday = Self.weekdayCodes.firstIndex(of: String(item.suffix(2))) else { return nil }
            let prefix = item.dropLast(2)
            guard let ordinal = prefix.isEmpty ? 0 : Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix),
                  (-53...53).contains(ordinal), prefix.isEmpty || ordinal != 0 else { return nil }
            // A number only means something in MONTHLY and YEARLY (RFC 5545 §3.3.10); elsewhere it is read as the weekday.
            if ordinal == 0 || ![.monthly, .yearly].contains(frequency) {
                plain.insert(weekday)
            } else if !numbered.contains(where: { $0 == (ordinal, weekday) }) {
                numbered.append((ordinal, weekday))
            }
        }
        self.weekNumbers = weekNumbers
        self.yearDays = yearDays
        self.setPositions = setPositions.sorted()
        // RFC 5545's defaults: without a day part, the day comes from DTSTART.
        let hasDayPart = !weekNumbers.isEmpty || !yearDays.isEmpty || !monthDays.isEmpty || !plain.isEmpty || !numbered.isEmpty
        var defaultMonths = months
        var defaultMonthDays = monthDays
        switch frequency {
        case .yearly where !hasDayPart:
            if defaultMonths.isEmpty { defaultMonths = [start.date.month] }
            defaultMonthDays = [start.date.day]
        case .monthly where !hasDayPart:
            defaultMonthDays = [start.date.day]
        case .weekly where !hasDayPart:
            plain = [start.date.weekday]
        default: break
        }
        self.months = defaultMonths
        self.monthDays = defaultMonthDays
        weekdays = plain
        numberedWeekdays = numbered
        // An all-day series has no time of day: its time parts are ignored (RFC 5545 §3.3.10).
        // A leap second (60) is read as :59, as every DATE-TIME is.
        self.hours = isDate || rule.value("BYHOUR") == nil ? nil : hours.sorted()
        self.minutes = isDate || rule.value("BYMINUTE") == nil ? nil : minutes.sorted()
        self.seconds = isDate || rule.value("BYSECOND") == nil ? nil : Set(seconds.map { min($0, 59) }).sorted()
    }

    // MARK: days

    /// Whether day `day` of `month` passes every day-level part (BYMONTH,
    /// BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY). Numbered weekdays count within
    /// the month, or within the year for a YEARLY rule without BYMONTH. Plain
    /// integer work on the month's figures: this runs for every candidate day.
    func accepts(_ day: Int, of month: MonthFigures) -> Bool {
        if !months.isEmpty, !months.contains(month.month) { return false }
        if !monthDays.isEmpty, !monthDays.contains(day), !monthDays.contains(day - month.length - 1) { return false }
        let yearDay = month.yearDayOfFirst + day - 1
        if !yearDays.isEmpty, !yearDays.contains(yearDay), !yearDays.contains(yearDay - month.yearLength - 1) { return false }
        if !weekNumbers.isEmpty {
            let week = WeekNumbering(weekStart: weekStart).weekOfYear(CivilDate(year: month.year, month: month.month, day: day))
            guard weekNumbers.contains(week.number) || weekNumbers.contains(week.number - week.weeksInYear - 1) else { return false }
        }
        if weekdays.isEmpty, numberedWeekdays.isEmpty { return true }
        let weekday = (month.weekdayOfFirst + day - 1) % 7
        if weekdays.contains(weekday) { return true }
        guard !numberedWeekdays.isEmpty else { return false }
        let inYear = frequency == .yearly && months.isEmpty
        let (index, length) = inYear ? (yearDay, month.yearLength) : (day, month.length)
        let nth = (index - 1) / 7 + 1, fromEnd = -((length - index) / 7 + 1)
        return numberedWeekdays.contains { $0.weekday == weekday && ($0.ordinal == nth || $0.ordinal == fromEnd) }
    }
}

/// What `RuleParts.accepts` needs to know of a month, worked out once per month
/// instead of once per candidate day.
struct MonthFigures: Sendable {
    let year: Int
    let month: Int
    let length: Int
    let yearLength: Int
    /// The day of the year of the month's first day (1 for January).
    let yearDayOfFirst: Int
    /// 0 = Sunday.
    let weekdayOfFirst: Int

    init(year: Int, month: Int) {
        self.year = year
        self.month = month
        length = CivilDate.daysIn(month: month, year: year)
        yearLength = CivilDate.isLeap(year) ? 366 : 365
        let first = CivilDate(year: year, month: month, day: 1)
        yearDayOfFirst = first.daysSinceEpoch - CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + 1
        weekdayOfFirst = first.weekday
    }

    func date(_ day: Int) -> CivilDate { CivilDate(year: year, month: month, day: day) }
}

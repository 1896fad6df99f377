/// Expands the plain Gregorian rules most calendars hold by date arithmetic,
/// not through libical's iterator: DAILY, WEEKLY, MONTHLY and YEARLY with
/// INTERVAL, COUNT, UNTIL, WKST, BYMONTH, BYMONTHDAY and BYDAY in the shapes
/// RFC 5545 gives them ("every other Monday and Wednesday", "the last Friday
/// of the month", "the second Sunday of May", "the 15th").
///
/// Why: libical 3.0.16 built with ICU steps every rule through ICU calendar
/// fields; preparing the 5,500 repeats of a 100k feed's first page spent over
/// half its time there (issue #41). Here a period's dates are a few integer
/// operations, and a rule without COUNT starts next to the window.
///
/// Only these shapes are taken, and only when DTSTART is itself an instance
/// (then the period walk needs no care for DTSTART's own period):
/// `PlainRuleExpanderTests` compares the answer with `GregorianRuleExpander`'s
/// on thousands of random rules. Anything else is nil, and `RuleExpander` asks
/// the general expander.
struct PlainRuleExpander {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    /// COUNT, capped as `GregorianRuleExpander` caps it.
    let count: Int?
    /// The last wall time an instance may have (UNTIL, inclusive).
    let until: LocalDateTime?
    /// BYMONTH, sorted; empty when absent.
    let months: [Int]
    /// BYMONTHDAY, sorted; empty when absent.
    let monthDays: [Int]
    /// BYDAY as (ordinal, weekday 0 = Sunday): ordinal 0 is every such weekday.
    let weekdays: [(ordinal: Int, weekday: Int)]
    /// WKST, 0 = Sunday.
    let weekStart: Int
    let start: LocalDateTime
    /// Periods looked at before giving up (`RuleExpander.iterationBudget`).
    let periodBudget: Int

    private static let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    private static let takenParts: Set<String> = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST", "BYMONTH", "BYMONTHDAY", "BYDAY"]

    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool, periodBudget: Int = 500_000) {
        guard rule.parts.allSatisfy({ Self.takenParts.contains($0.key) }), start.date.isValid,
              [.daily, .weekly, .monthly, .yearly].contains(rule.frequency) else { return nil }
        frequency = rule.frequency
        interval = rule.interval
        guard interval >= 1, interval <= Int(Int16.max) else { return nil }
        count = rule.count.map { min($0, GregorianRuleExpander.maxCount) }
        if let text = rule.value("UNTIL") {
            // A DATE limits an all-day series and a DATE-TIME a timed one (`SeriesShape` localizes UNTIL so); a mix is the general expander's.
            guard let value = DateTimeValue(text: text, tzid: nil, valueType: nil), value.isAllDay == isDate else { return nil }
            until = isDate ? LocalDateTime(date: value.civilDate) : value.local
        } else {
            until = nil
        }
        guard let weekStart = Self.codes.firstIndex(of: rule.value("WKST") ?? "MO") else { return nil }
        self.weekStart = weekStart
        guard let months = Self.numbers(rule, "BYMONTH", in: 1...12),
              let monthDays = Self.numbers(rule, "BYMONTHDAY", in: -31...31), !monthDays.contains(0),
              let weekdays = Self.weekdays(rule) else { return nil }
        self.months = months
        self.monthDays = monthDays
        self.weekdays = weekdays
        let ordinals = weekdays.contains { $0.ordinal != 0 }
        switch frequency {
        case .daily:
            guard monthDays.isEmpty, !ordinals else { return nil }
        case .weekly:
            // Every other week with another WKST than Monday (and BYMONTH there) is left to the general expander.
            guard monthDays.isEmpty, !ordinals, interval == 1 || weekStart == 1 else { return nil }
        case .monthly:
            guard monthDays.isEmpty || weekdays.isEmpty, weekdays.allSatisfy({ (-5...5).contains($0.ordinal) }) else { return nil }
        case .yearly:
            // Without BYMONTH, BYDAY and BYMONTHDAY count through the year: the general expander's.
            guard monthDays.isEmpty || weekdays.isEmpty, weekdays.isEmpty && monthDays.isEmpty || !months.isEmpty,
                  weekdays.allSatisfy({ (-5...5).contains($0.ordinal) }) else { return nil }
        default:
            return nil
        }
        self.start = start
        self.periodBudget = periodBudget
        // DTSTART must be an instance: then its period needs no care for what lies before it.
        guard dates(inPeriod: 0).contains(start.date) else { return nil }
    }

    /// Instances with `from <= t < to`, sorted, at most `limit` (as `RuleExpander.expand`).
    func expand(from: LocalDateTime?, to: LocalDateTime, limit: Int) -> RuleExpander.Result {
        var found: [LocalDateTime] = []
        var seen = 0
        // Without COUNT nothing before the window matters: start one period before it.
        var period = 0
        if count == nil, let from, from > start { period = max(0, periodIndex(containing: from.date) - 1) }
        let toDate = to.date
        var budget = periodBudget
        while true {
            guard let first = firstDay(ofPeriod: period), first <= toDate else { return .init(occurrences: found, truncated: false) }
            budget -= 1
            if budget < 0 { return .init(occurrences: found, truncated: true) }
            for date in dates(inPeriod: period) {
                let instance = LocalDateTime(date: date, hour: start.hour, minute: start.minute, second: start.second)
                if instance < start { continue }
                if let until, instance > until { return .init(occurrences: found, truncated: false) }
                seen += 1
                if let count, seen > count { return .init(occurrences: found, truncated: false) }
                if instance >= to { return .init(occurrences: found, truncated: false) }
                if let from, instance < from { continue }
                if found.count == limit { return .init(occurrences: found, truncated: true) }
                found.append(instance)
            }
            period += 1
        }
    }

    // MARK: periods

    /// The first day of period `index` (counted in INTERVALs from DTSTART's), nil past year 9999.
    private func firstDay(ofPeriod index: Int) -> CivilDate? {
        let steps = index * interval
        let day: CivilDate
        switch frequency {
        case .daily: day = start.date.adding(days: steps)
        case .weekly: day = weekBeginning(start.date).adding(days: 7 * steps)
        case .monthly:
            let months = start.date.year * 12 + start.date.month - 1 + steps
            day = CivilDate(year: months / 12, month: months % 12 + 1, day: 1)
        default: day = CivilDate(year: start.date.year + steps, month: 1, day: 1)
        }
        return day.year <= 9999 ? day : nil
    }

    /// The period holding `date` (0 for DTSTART's, and for anything before it).
    private func periodIndex(containing date: CivilDate) -> Int {
        let elapsed = switch frequency {
        case .daily: date.daysSinceEpoch - start.date.daysSinceEpoch
        case .weekly: (weekBeginning(date).daysSinceEpoch - weekBeginning(start.date).daysSinceEpoch) / 7
        case .monthly: (date.year - start.date.year) * 12 + date.month - start.date.month
        default: date.year - start.date.year
        }
        return max(0, elapsed / interval)
    }

    private func weekBeginning(_ date: CivilDate) -> CivilDate { date.adding(days: -((date.weekday - weekStart + 7) % 7)) }

    /// The dates period `index` produces, sorted and unique.
    private func dates(inPeriod index: Int) -> [CivilDate] {
        guard let first = firstDay(ofPeriod: index) else { return [] }
        switch frequency {
        case .daily:
            return passesLimits(first) ? [first] : []
        case .weekly:
            let days = weekdays.isEmpty ? [start.date.weekday] : weekdays.map(\.weekday)
            return (0..<7).map { first.adding(days: $0) }.filter { days.contains($0.weekday) && (months.isEmpty || months.contains($0.month)) }
        case .monthly:
            guard months.isEmpty || months.contains(first.month) else { return [] }
            return days(inMonth: first.month, of: first.year)
        default:
            return (months.isEmpty ? [start.date.month] : months).flatMap { days(inMonth: $0, of: first.year) }
        }
    }

    /// A daily rule's limits: BYMONTH and plain BYDAY.
    private func passesLimits(_ date: CivilDate) -> Bool {
        (months.isEmpty || months.contains(date.month)) && (weekdays.isEmpty || weekdays.contains { $0.weekday == date.weekday })
    }

    /// The days one month gives: BYMONTHDAY, else BYDAY, else DTSTART's day (none when the month lacks it).
    private func days(inMonth month: Int, of year: Int) -> [CivilDate] {
        let length = CivilDate.daysIn(month: month, year: year)
        var days: [Int]
        if !monthDays.isEmpty {
            days = monthDays.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { (1...length).contains($0) }
        } else if !weekdays.isEmpty {
            let firstWeekday = CivilDate(year: year, month: month, day: 1).weekday
            days = []
            for (ordinal, weekday) in weekdays {
                let firstDay = 1 + (weekday - firstWeekday + 7) % 7
                let all = Array(stride(from: firstDay, through: length, by: 7))
                if ordinal == 0 { days += all } else if ordinal > 0, ordinal <= all.count { days.append(all[ordinal - 1]) } else if ordinal < 0, -ordinal <= all.count {
                    days.append(all[all.count + ordinal])
                }
            }
        } else {
            days = start.date.day <= length ? [start.date.day] : []
        }
        return Set(days).sorted().map { CivilDate(year: year, month: month, day: $0) }
    }

    // MARK: reading the parts

    private static func numbers(_ rule: RecurrenceRule, _ key: String, in range: ClosedRange<Int>) -> [Int]? {
        guard rule.value(key) != nil else { return [] }
        let list = rule.list(key)
        let values = list.compactMap { Int($0) }
        guard values.count == list.count, values.allSatisfy(range.contains) else { return nil }
        return Set(values).sorted()
    }

    private static func weekdays(_ rule: RecurrenceRule) -> [(ordinal: Int, weekday: Int)]? {
        var result: [(ordinal: Int, weekday: Int)] = []
        for item in rule.list("BYDAY") {
            guard item.count >= 2, let weekday = codes.firstIndex(of: String(item.suffix(2))) else { return nil }
            let prefix = item.dropLast(2)
            let ordinal = prefix.isEmpty ? 0 : Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix)
            guard let ordinal, prefix.isEmpty || ordinal != 0 else { return nil }
            if !result.contains(where: { $0 == (ordinal, weekday) }) { result.append((ordinal, weekday)) }
        }
        return result
    }
}

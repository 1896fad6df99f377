/// Two reasons a rule is refused when it is read, apart from a value out of
/// range (`RulePartProblem`):
///
/// - **It has no instance, whatever its DTSTART**, proved from its parts:
///   `BYMONTHDAY=30` with `BYMONTH=2`, a `BYYEARDAY` that never falls in the
///   given months, or day-level parts that no day passes together
///   (`FREQ=HOURLY;BYYEARDAY=366;BYMONTHDAY=30`), checked day by day over one
///   400-year Gregorian cycle, after which dates and weekdays repeat
///   (`DayFilterGap`). Every day-level part limits the days a period gives
///   (`RuleParts.accepts`), so a day none of them lets through never comes.
///   A rule that never matches from one particular DTSTART is another matter:
///   `UnreachableRule` proves that per series.
/// - **RFC 5545 §3.3.10 forbids the combination** (`forbidden(in:)`, strict
///   reading only): BYWEEKNO outside YEARLY, BYYEARDAY in DAILY, WEEKLY or
///   MONTHLY, BYMONTHDAY in WEEKLY, a numbered BYDAY outside MONTHLY and
///   YEARLY or beside BYWEEKNO. The lenient reading that expands real calendars
///   reads them as python-dateutil does: the forbidden parts limit, and a
///   number before a weekday outside MONTHLY and YEARLY is ignored.
///
/// Nothing here is about time any more: libical 3.0.16's iterator, which had
/// to be kept away from rules it would search for minutes, no longer expands
/// anything (`GregorianRuleExpander`, issue #61), so sparse MINUTELY and
/// SECONDLY rules and large intervals are expanded, not refused.
enum RuleFeasibility {
    /// Why the rule has no instance besides DTSTART, or nil when it may have one.
    static func problem(with rule: RecurrenceRule) -> String? {
        let months = rule.integers("BYMONTH").isEmpty ? Array(1...12) : rule.integers("BYMONTH")
        let monthDays = rule.integers("BYMONTHDAY")
        if !monthDays.isEmpty, !months.contains(where: { month in monthDays.contains { abs($0) <= longest(month) } }) {
            return "BYMONTHDAY=\(rule.value("BYMONTHDAY")!) never falls in \(rule.value("BYMONTH").map { "BYMONTH=\($0)" } ?? "any month"), so the rule has no occurrence"
        }
        let yearDays = rule.integers("BYYEARDAY")
        if !yearDays.isEmpty, rule.value("BYMONTH") != nil,
           !yearDays.contains(where: { day in monthsOf(yearDay: day).contains { months.contains($0) } }) {
            return "BYYEARDAY=\(rule.value("BYYEARDAY")!) never falls in BYMONTH=\(rule.value("BYMONTH")!), so the rule has no occurrence"
        }
        let dayParts = ["BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYDAY"].filter { rule.value($0) != nil }
        // BYMONTH with one other part is settled above (or always matches: every month has every
        // weekday); the cycle is walked only for pairs that can exclude each other day by day.
        let has = { (key: String) in rule.value(key) != nil }
        let mayExclude = (has("BYYEARDAY") && (has("BYMONTHDAY") || has("BYDAY"))) || (has("BYMONTHDAY") && has("BYDAY"))
        if mayExclude, DayFilterGap.largestGap(DayFilterGap.Filters(rule: rule)) == nil {
            return "\(dayParts.map { "\($0)=\(rule.value($0)!)" }.joined(separator: ";")) match no day together, so the rule has no occurrence"
        }
        if let problem = setPositionProblem(with: rule) { return problem }
        return nil
    }

    /// DAILY and shorter periods hold a set of a fixed size (a day: BYHOUR ×
    /// BYMINUTE × BYSECOND; an hour: BYMINUTE × BYSECOND; a minute: BYSECOND; a
    /// second: itself), so a BYSETPOS beyond it never picks anything, and a walk
    /// would test every period to the end of time (a SECONDLY rule: 86,400 a day).
    private static func setPositionProblem(with rule: RecurrenceRule) -> String? {
        let positions = rule.integers("BYSETPOS")
        guard !positions.isEmpty else { return nil }
        func size(_ key: String) -> Int { max(1, Set(rule.integers(key)).count) }
        let setSize: Int
        switch rule.frequency {
        case .daily: setSize = size("BYHOUR") * size("BYMINUTE") * size("BYSECOND")
        case .hourly: setSize = size("BYMINUTE") * size("BYSECOND")
        case .minutely: setSize = size("BYSECOND")
        case .secondly: setSize = 1
        default: return nil
        }
        guard positions.allSatisfy({ abs($0) > setSize }) else { return nil }
        let holds = setSize == 1 ? "one instant" : "\(setSize) instants"
        return "BYSETPOS=\(rule.value("BYSETPOS")!) picks beyond each FREQ=\(rule.frequency.rawValue) period's set, which holds \(holds), so the rule has no occurrence"
    }

    /// The BYxxx combinations RFC 5545 §3.3.10 forbids, named with the RFC's rule.
    static func forbidden(in rule: RecurrenceRule) -> String? {
        let frequency = rule.frequency
        if rule.value("BYWEEKNO") != nil, frequency != .yearly {
            return "BYWEEKNO is only allowed with FREQ=YEARLY, not FREQ=\(frequency.rawValue) (RFC 5545 3.3.10)"
        }
        if rule.value("BYYEARDAY") != nil, [.daily, .weekly, .monthly].contains(frequency) {
            return "BYYEARDAY must not be given with FREQ=\(frequency.rawValue) (RFC 5545 3.3.10: not with DAILY, WEEKLY or MONTHLY)"
        }
        if rule.value("BYMONTHDAY") != nil, frequency == .weekly {
            return "BYMONTHDAY must not be given with FREQ=WEEKLY (RFC 5545 3.3.10)"
        }
        if let numbered = rule.list("BYDAY").first(where: { $0.count > 2 }) {
            if frequency != .monthly && frequency != .yearly {
                return "BYDAY=\(numbered) numbers a weekday, which only FREQ=MONTHLY or YEARLY allows (RFC 5545 3.3.10)"
            }
            if frequency == .yearly && rule.value("BYWEEKNO") != nil {
                return "BYDAY=\(numbered) numbers a weekday, which FREQ=YEARLY with BYWEEKNO does not allow (RFC 5545 3.3.10)"
            }
        }
        return nil
    }

    /// Days in the longest instance of `month` (February: 29).
    static func longest(_ month: Int) -> Int {
        switch month {
        case 2: 29
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The months a BYYEARDAY value can fall in, over leap and common years.
    static func monthsOf(yearDay: Int) -> Set<Int> {
        var months = Set<Int>()
        for length in [365, 366] {
            let day = yearDay > 0 ? yearDay : length + 1 + yearDay
            guard (1...length).contains(day) else { continue }
            var remaining = day
            for month in 1...12 {
                let days = month == 2 ? (length == 366 ? 29 : 28) : longest(month)
                if remaining <= days { months.insert(month); break }
                remaining -= days
            }
        }
        return months
    }
}

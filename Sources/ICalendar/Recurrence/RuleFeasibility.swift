/// Rules that libical 3.0.16 would search for ever, or for minutes, refused
/// when they are parsed, since no budget can stop libical once it is inside a
/// step: `icalrecur_iterator_next` loops over candidate instants until one
/// passes every BY-part filter, and gives up only past the year 2582.
///
/// - Filters that no date passes: `BYMONTHDAY=30` with `BYMONTH=2`, or a
///   `BYYEARDAY` that never falls in the given months. A DAILY rule of this
///   kind took 3 s to fail; a SECONDLY one never ended (two GETs kept both
///   cores busy for minutes).
/// - Numbered weekdays (`BYDAY=2SA`) outside MONTHLY and YEARLY, or with
///   YEARLY and BYWEEKNO, which RFC 5545 forbids: libical then tests every
///   minute for ever (found by FuzzRecurrenceRule: `BYDAY=2SA;FREQ=MINUTELY`).
/// - SECONDLY rules with any day filter, and MINUTELY rules with a month or
///   year-day filter: libical tests every second (minute) between matches, up
///   to tens of millions of them per step. `FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=28`
///   did not finish in a minute. The same series is written as FREQ=DAILY
///   with BYHOUR, BYMINUTE and BYSECOND.
/// - DAILY and shorter rules whose day filters (BYMONTH, BYMONTHDAY,
///   BYYEARDAY, BYDAY) no day passes together, in any combination:
///   `FREQ=HOURLY;BYYEARDAY=366;BYMONTHDAY=30` took libical 17.6 s to give up.
///   One 400-year Gregorian cycle (weekdays included) is checked day by day
///   (`DayFilterGap`).
/// - Shorter-than-daily rules whose instants lie so far apart that one libical
///   step tests more than `maxCandidatesPerStep` instants (libical spends 3–6 µs
///   on each, through ICU): an hourly rule on 29 February tests 70,000 hours
///   between 2096 and 2104. The same series is a YEARLY rule with BYHOUR.
/// - BYWEEKNO outside FREQ=YEARLY, which RFC 5545 forbids.
enum RuleFeasibility {
    /// Instants one libical step may test: about 0.3–0.5 s of libical's time,
    /// within reach of RuleExpander's budget, which is checked between steps.
    static let maxCandidatesPerStep = 100_000

    /// Why the rule cannot be expanded in bounded time, or nil when it can.
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
        let numbered = rule.list("BYDAY").filter { $0.count > 2 }
        if let first = numbered.first {
            if rule.frequency != .monthly && rule.frequency != .yearly {
                return "BYDAY=\(first) numbers a weekday, which only FREQ=MONTHLY or YEARLY allows (RFC 5545 3.3.10)"
            }
            if rule.frequency == .yearly && rule.value("BYWEEKNO") != nil {
                return "BYDAY=\(first) numbers a weekday, which FREQ=YEARLY with BYWEEKNO does not allow (RFC 5545 3.3.10)"
            }
        }
        let dayFilters = ["BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYDAY"].filter { rule.value($0) != nil }
        if let problem = spacingProblem(with: rule, dayFilters: dayFilters) { return problem }
        switch rule.frequency {
        case .secondly where !dayFilters.isEmpty:
            return "FREQ=SECONDLY with \(dayFilters.joined(separator: ", ")) makes libical test every second between matches; write it as FREQ=DAILY with BYHOUR, BYMINUTE and BYSECOND"
        case .minutely where dayFilters.contains("BYMONTH") || dayFilters.contains("BYYEARDAY") || dayFilters.contains("BYWEEKNO"):
            return "FREQ=MINUTELY with \(dayFilters.joined(separator: ", ")) makes libical test every minute between matches; write it as FREQ=DAILY with BYHOUR and BYMINUTE"
        default:
            return nil
        }
    }

    /// Rules of DAILY or shorter frequency whose instants never come, or come so
    /// rarely that a single libical step would run for seconds.
    private static func spacingProblem(with rule: RecurrenceRule, dayFilters: [String]) -> String? {
        let unit: Int
        switch rule.frequency {
        case .daily: unit = 86_400
        case .hourly: unit = 3_600
        case .minutely: unit = 60
        case .secondly: unit = 1
        default: return nil
        }
        if rule.value("BYWEEKNO") != nil {
            return "BYWEEKNO is only allowed with FREQ=YEARLY (RFC 5545 3.3.10)"
        }
        let filters = DayFilterGap.Filters(rule: rule)
        guard let dayGap = DayFilterGap.largestGap(filters) else {
            return "\(dayFilters.map { "\($0)=\(rule.value($0)!)" }.joined(separator: ";")) match no day together, so the rule has no occurrence"
        }
        guard unit < 86_400 else { return nil }
        // The matching times of day, at the rule's own granularity.
        let hours = rule.value("BYHOUR") == nil ? Array(0..<24) : rule.integers("BYHOUR").filter { (0..<24).contains($0) }
        let minutes = unit > 60 ? [0] : rule.value("BYMINUTE") == nil ? Array(0..<60) : rule.integers("BYMINUTE").filter { (0..<60).contains($0) }
        let seconds = unit > 1 ? [0] : rule.value("BYSECOND") == nil ? Array(0..<60) : rule.integers("BYSECOND").filter { (0...60).contains($0) }
        let times = hours.flatMap { hour in minutes.flatMap { minute in seconds.map { hour * 3_600 + minute * 60 + $0 } } }.sorted()
        guard let first = times.first, let last = times.last else { return nil }   // libical refuses such values
        var gap = dayGap * 86_400 - last + first
        for (earlier, later) in zip(times, times.dropFirst()) { gap = max(gap, later - earlier) }
        let candidates = gap / unit
        guard candidates > maxCandidatesPerStep else { return nil }
        let frequency = rule.frequency.rawValue
        return "FREQ=\(frequency) instants lie up to \(DayFilterGap.describe(seconds: gap)) apart, so libical would test \(candidates) \(frequency == "HOURLY" ? "hours" : frequency == "MINUTELY" ? "minutes" : "seconds") for one of them; write it as FREQ=YEARLY (or MONTHLY) with BYHOUR, BYMINUTE and BYSECOND"
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

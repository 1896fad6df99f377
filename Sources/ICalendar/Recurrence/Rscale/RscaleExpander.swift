import Foundation

/// Expands an RFC 7529 rule (RSCALE, with SKIP) in its calendar, with ICU
/// through Foundation. libical 3.0.16 expands RSCALE too, but wrongly:
/// `RSCALE=CHINESE;FREQ=YEARLY` from 2026-02-17 gives 2027-02-07 and
/// 2030-02-02, where Chinese New Year falls on 2027-02-06 and 2030-02-03.
///
/// It covers what lunar and religious dates are written with: FREQ=YEARLY or
/// MONTHLY, INTERVAL, COUNT, UNTIL, BYMONTH (leap months as `5L`), BYMONTHDAY
/// (negative counts from the month's end) and SKIP. A rule with other parts
/// (BYDAY, BYYEARDAY, BYSETPOS …) or another frequency is not taken
/// (`init` returns nil) and stays with libical; RSCALE=GREGORIAN is taken
/// only with a SKIP other than OMIT, since plain RFC 5545 covers the rest.
///
/// As in RFC 5545, DTSTART is the first instance and counts toward COUNT.
struct RscaleExpander {
    let calendar: RscaleCalendar
    let skip: RscaleSkip
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    let count: Int?
    let until: LocalDateTime?
    /// BYMONTH; nil for every month (MONTHLY) or DTSTART's month (YEARLY).
    let months: [RscaleMonth]?
    /// BYMONTHDAY; DTSTART's day when the rule has none.
    let days: [Int]
    let start: LocalDateTime
    let isDate: Bool

    static let handledParts: Set<String> = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYMONTHDAY", "RSCALE", "SKIP", "WKST"]

    /// Day filters whose meaning depends on the calendar: a rule in another
    /// calendar with none of them (FREQ=WEEKLY, DAILY …) expands as in Gregorian.
    static let calendarParts: Set<String> = ["BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYDAY", "BYSETPOS"]

    /// Why tminus cannot expand an RSCALE or SKIP rule, or nil. Checked when a
    /// rule is parsed, so a rule in another calendar either expands here or
    /// is calendar-independent and left to libical without its RSCALE.
    static func problem(with rule: RecurrenceRule) -> String? {
        if let skip = rule.value("SKIP") {
            guard RscaleSkip(rawValue: skip) != nil else { return "SKIP=\(skip) must be OMIT, BACKWARD or FORWARD (RFC 7529)" }
            guard rule.value("RSCALE") != nil else { return "SKIP needs an RSCALE (RFC 7529), such as RSCALE=GREGORIAN" }
        }
        guard let name = rule.value("RSCALE") else {
            if let leap = rule.list("BYMONTH").first(where: { $0.hasSuffix("L") }) {
                return "BYMONTH=\(leap) is a leap month, which needs an RSCALE calendar that has them (RSCALE=CHINESE or HEBREW)"
            }
            return nil
        }
        guard RscaleCalendar.supports(name) else {
            return "RSCALE=\(name) is not a calendar tminus can expand (use one of \(RscaleCalendar.supportedNames.joined(separator: ", ")))"
        }
        if let bad = rule.list("BYMONTH").first(where: { RscaleMonth(parsing: $0) == nil }) {
            return "BYMONTH=\(bad) is not a month (1 to 13, or a leap month such as 5L)"
        }
        if let bad = rule.list("BYMONTHDAY").first(where: { Int($0).map { $0 == 0 || abs($0) > 31 } ?? true }) {
            return "BYMONTHDAY=\(bad) is not a day of the month (1 to 31, or -1 to -31 from its end)"
        }
        let calendarDependent = rule.parts.map(\.key).filter(calendarParts.contains)
        if rule.frequency == .yearly || rule.frequency == .monthly {
            if let other = rule.parts.first(where: { !handledParts.contains($0.key) }) {
                return "RSCALE=\(name) with \(other.key) is not supported: tminus expands RFC 7529 rules with INTERVAL, COUNT, UNTIL, BYMONTH, BYMONTHDAY and SKIP"
            }
        } else if let first = calendarDependent.first {
            return "RSCALE=\(name) with FREQ=\(rule.frequency.rawValue) and \(first) is not supported: use FREQ=YEARLY or MONTHLY with BYMONTH and BYMONTHDAY"
        }
        return nil
    }

    /// True when this expander, not libical, expands `rule`.
    static func takes(_ rule: RecurrenceRule) -> Bool {
        guard let name = rule.value("RSCALE"), RscaleCalendar.supports(name),
              rule.frequency == .yearly || rule.frequency == .monthly,
              rule.parts.allSatisfy({ handledParts.contains($0.key) }) else { return false }
        return name.uppercased() != "GREGORIAN" || (rule.value("SKIP").flatMap(RscaleSkip.init(rawValue:)) ?? .omit) != .omit
    }

    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        guard Self.takes(rule), let calendar = rule.value("RSCALE").flatMap(RscaleCalendar.init(named:)) else { return nil }
        let skip = rule.value("SKIP").flatMap(RscaleSkip.init(rawValue:)) ?? .omit
        var months: [RscaleMonth]?
        if rule.value("BYMONTH") != nil {
            let parsed = rule.list("BYMONTH").compactMap(RscaleMonth.init(parsing:))
            guard parsed.count == rule.list("BYMONTH").count else { return nil }
            months = Array(Set(parsed)).sorted()
        }
        let origin = calendar.month(of: start.date)
        let days = rule.value("BYMONTHDAY") == nil ? [origin.day] : rule.integers("BYMONTHDAY")
        guard !days.isEmpty, days.allSatisfy({ $0 != 0 && abs($0) <= 31 }) else { return nil }
        self.calendar = calendar
        self.skip = skip
        self.frequency = rule.frequency
        self.interval = max(rule.interval, 1)
        self.count = rule.count
        self.until = rule.until.map { $0.local }
        self.months = months ?? (rule.frequency == .yearly ? [origin.month] : nil)
        self.days = days
        self.start = start
        self.isDate = isDate
    }

    /// Occurrences with `from <= t < to`, sorted, at most `limit`; the same
    /// contract as `RuleExpander.expand`.
    func expand(from: LocalDateTime?, to: LocalDateTime, limit: Int, deadline: ContinuousClock.Instant,
                periodBudget: Int = 200_000) -> RuleExpander.Result {
        let arithmetic = calendar.arithmetic
        let yearly = frequency == .yearly
        func advance(_ period: CivilDate, _ count: Int) -> CivilDate? {
            yearly ? arithmetic.adding(years: count, toYearStart: period) : arithmetic.adding(months: count, toMonthStart: period)
        }
        var period = yearly ? arithmetic.yearStart(containing: start.date) : arithmetic.monthStart(containing: start.date)
        var occurrences: [LocalDateTime] = []
        var produced = 1   // DTSTART is the first instance
        // A DTSTART already past UNTIL is no instance of the rule (the series still shows it),
        // as for Gregorian rules (found by FuzzRecurrenceRule's invariants: `UNTIL=20290213` from 2040).
        let startWithinUntil = until.map { isDate ? start.date <= $0.date : start <= $0 } ?? true
        if from.map({ start >= $0 }) ?? true, start < to, startWithinUntil { occurrences.append(start) }
        if let from, count == nil, from.date > start.date {
            // Far from DTSTART: start a little before `from`. Gregorian years and
            // months are never more than this calendar's over the same span, so
            // the jump stays short of `from`.
            let gregorian = yearly ? from.date.year - start.date.year - 1
                : (from.date.year - start.date.year) * 12 + from.date.month - start.date.month - 2
            let periods = max(0, gregorian / interval) * interval
            if periods > 0, let jumped = advance(period, periods) { period = jumped }
        }
        var truncated = false
        var periods = 0
        periodLoop: while period <= to.date {
            periods += 1
            if periods > periodBudget || (periods % 64 == 0 && ContinuousClock.now > deadline) { truncated = true; break }
            for day in candidates(inPeriodStarting: period) {
                let occurrence = LocalDateTime(date: day, hour: start.hour, minute: start.minute, second: start.second)
                guard occurrence > start else { continue }
                if let until, isDate ? day > until.date : occurrence > until { break periodLoop }
                produced += 1
                if let count, produced > count { break periodLoop }
                if occurrence >= to { break periodLoop }
                if from.map({ occurrence >= $0 }) ?? true {
                    occurrences.append(occurrence)
                    if occurrences.count > limit { truncated = true; break periodLoop }
                }
            }
            guard let next = advance(period, interval), next > period else { break }
            period = next
        }
        // SKIP=FORWARD can move a year's last date onto the next year's first.
        occurrences = Array(Set(occurrences)).sorted()
        if occurrences.count > limit { occurrences = Array(occurrences.prefix(limit)) }
        return RuleExpander.Result(occurrences: occurrences, truncated: truncated)
    }

    /// The days one year or month contributes, sorted and distinct, with SKIP applied.
    func candidates(inPeriodStarting period: CivilDate) -> [CivilDate] {
        var found = Set<CivilDate>()
        if frequency == .yearly {
            for month in months ?? [] {
                guard let first = monthStart(month, inYearStarting: period) else { continue }
                for day in days { if let date = resolve(day, inMonthStarting: first) { found.insert(date) } }
            }
        } else if months?.contains(calendar.arithmetic.month(of: period).month) ?? true {
            for day in days { if let date = resolve(day, inMonthStarting: period) { found.insert(date) } }
        }
        return found.sorted()
    }

    /// The month's first day; for a month the year lacks, what SKIP makes of it.
    private func monthStart(_ month: RscaleMonth, inYearStarting year: CivilDate) -> CivilDate? {
        let arithmetic = calendar.arithmetic
        if let first = arithmetic.firstDay(of: month, inYearStarting: year) { return first }
        guard month.isLeap, skip != .omit, let plain = arithmetic.firstDay(of: RscaleMonth(month.number), inYearStarting: year) else { return nil }
        return skip == .backward ? plain : arithmetic.adding(months: 1, toMonthStart: plain)
    }

    /// Day `day` (negative from the end) of the month starting on `first`; for a
    /// day the month lacks, what SKIP makes of it.
    private func resolve(_ day: Int, inMonthStarting first: CivilDate) -> CivilDate? {
        let length = calendar.arithmetic.daysInMonth(startingOn: first)
        let index = day > 0 ? day : length + day + 1
        if (1...length).contains(index) { return first.adding(days: index - 1) }
        guard day > 0 else { return nil }
        switch skip {
        case .omit: return nil
        case .backward: return first.adding(days: length - 1)
        case .forward: return first.adding(days: length)
        }
    }
}

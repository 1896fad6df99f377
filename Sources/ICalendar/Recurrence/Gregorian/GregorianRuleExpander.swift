/// RFC 5545 §3.3.10 for every Gregorian FREQ and BYxxx combination, in wall
/// time, period by period as python-dateutil and rust-rrule do it: each FREQ
/// period (a year, a month, a week, a day; an hour, a minute or a second)
/// gives its candidate days, the day-level parts keep or drop each, the time
/// parts expand or limit the times of day, BYSETPOS picks from the period's
/// sorted set, and COUNT and UNTIL end the walk.
///
/// Why not libical's iterator (issue #61): libical 3.0.16 refuses or misreads
/// whole shapes (BYHOUR in DAILY rules read as a limit, BYMONTHDAY without
/// BYMONTH in YEARLY rules, BYWEEKNO without BYDAY, BYMONTH with BYYEARDAY,
/// the first instance after an off-rule DTSTART), and it tests sparse
/// MINUTELY and SECONDLY rules one candidate second at a time. Here a day that
/// no day-level part lets through costs one test whatever the frequency, and a
/// shorter-than-daily rule jumps from one day holding an aligned period to the
/// next, so `FREQ=SECONDLY;BYMONTH=1` reaches January in 121 steps, not 10
/// million. libical still reads (validates) every rule.
///
/// The answer is the rule's own set: DTSTART is in it only when it matches the
/// rule, and COUNT counts the rule's instances (as python-dateutil and libical
/// answer). The series adds DTSTART as its first instance either way
/// (`SeriesShape`, RFC 5545 §3.8.5.3), so an off-rule DTSTART is followed by
/// COUNT instances of the rule, as recurring-ical-events and the calendar
/// clients tested read it.
struct GregorianRuleExpander {
    /// COUNT above this is read as this: reaching today through a COUNT rule
    /// walks every instance since DTSTART, and no countdown needs more
    /// (`FREQ=SECONDLY;COUNT=2000000000` made each render walk millions of them).
    static let maxCount = 100_000
    private static let lastDay = CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch

    let parts: RuleParts
    let start: LocalDateTime
    let isDate: Bool
    /// Periods (days, for the shorter-than-daily frequencies) looked at before giving up.
    let periodBudget: Int
    let timeBudget: Duration

    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool, periodBudget: Int = 500_000,
          timeBudget: Duration = .milliseconds(250)) {
        guard start.isValid, let parts = RuleParts(rule: rule, start: start, isDate: isDate) else { return nil }
        self.parts = parts
        self.start = isDate ? LocalDateTime(date: start.date) : start
        self.isDate = isDate
        self.periodBudget = periodBudget
        self.timeBudget = timeBudget
    }

    /// Instances with `from <= t < to`, sorted and unique, at most `limit` (as `RuleExpander.expand`).
    func expand(from: LocalDateTime?, to: LocalDateTime, limit: Int) -> RuleExpander.Result {
        var output = Output(start: start, count: parts.count, until: parts.until, from: from, to: to, limit: limit)
        // Without COUNT nothing before the window matters: the walk starts next to it.
        let skipTo = parts.count == nil ? from.flatMap { $0 > start ? $0 : nil } : nil
        switch parts.frequency {
        case .hourly, .minutely, .secondly: walkDays(&output, skipTo: skipTo)
        default: walkPeriods(&output, skipTo: skipTo)
        }
        return output.result
    }

    // MARK: DAILY and longer

    private func walkPeriods(_ output: inout Output, skipTo: LocalDateTime?) {
        var period = skipTo.map { max(0, periodIndex(containing: $0.date) - 1) } ?? 0
        let times = timesOfDay
        let toDay = output.to.date.daysSinceEpoch
        let deadline = ContinuousClock.now + timeBudget
        for step in 0... {
            guard let (first, spans) = candidateDays(ofPeriod: period) else { return }
            if first.daysSinceEpoch > toDay { return }
            if step >= periodBudget || (step % 256 == 255 && ContinuousClock.now > deadline) { output.truncated = true; return }
            period += 1
            var set: [LocalDateTime] = []
            for span in spans {
                for day in span.days where parts.accepts(day, of: span.month) {
                    let date = span.month.date(day)
                    for time in times { set.append(LocalDateTime(date: date, hour: time.hour, minute: time.minute, second: time.second)) }
                }
            }
            if set.isEmpty { continue }
            for instance in selected(set) where !output.offer(instance) { return }
        }
    }

    /// The times of day a DAILY or longer period gives each of its days: BYHOUR ×
    /// BYMINUTE × BYSECOND, each DTSTART's own when absent (midnight, all-day).
    private var timesOfDay: [(hour: Int, minute: Int, second: Int)] {
        if isDate { return [(0, 0, 0)] }
        let hours = parts.hours ?? [start.hour], minutes = parts.minutes ?? [start.minute], seconds = parts.seconds ?? [start.second]
        return hours.flatMap { hour in minutes.flatMap { minute in seconds.map { (hour, minute, $0) } } }
    }

    /// Some days of one month, as a period's candidates.
    private struct Span {
        let month: MonthFigures
        let days: ClosedRange<Int>
    }

    /// Period `index`'s first day and its candidate days in order (counted in
    /// INTERVALs from DTSTART's), nil past year 9999.
    private func candidateDays(ofPeriod index: Int) -> (first: CivilDate, spans: [Span])? {
        let (steps, overflow) = index.multipliedReportingOverflow(by: parts.interval)
        guard !overflow else { return nil }
        switch parts.frequency {
        case .yearly:
            let year = start.date.year + steps
            guard year <= 9999 else { return nil }
            let months = parts.months.isEmpty ? Array(1...12) : parts.months.sorted()
            return (CivilDate(year: year, month: 1, day: 1), months.map { Self.wholeMonth(year, $0) })
        case .monthly:
            let months = start.date.year * 12 + start.date.month - 1 + steps
            guard months / 12 <= 9999 else { return nil }
            let (year, month) = (months / 12, months % 12 + 1)
            let first = CivilDate(year: year, month: month, day: 1)
            if !parts.months.isEmpty, !parts.months.contains(month) { return (first, []) }
            return (first, [Self.wholeMonth(year, month)])
        case .weekly:
            let (days, overflow) = steps.multipliedReportingOverflow(by: 7)
            let first = weekBeginning(start.date).daysSinceEpoch + days
            guard !overflow, first <= Self.lastDay - 6 else { return nil }
            let (from, through) = (CivilDate(daysSinceEpoch: first), CivilDate(daysSinceEpoch: first + 6))
            if from.month == through.month {
                return (from, [Span(month: MonthFigures(year: from.year, month: from.month), days: from.day...through.day)])
            }
            let head = MonthFigures(year: from.year, month: from.month)
            return (from, [Span(month: head, days: from.day...head.length),
                           Span(month: MonthFigures(year: through.year, month: through.month), days: 1...through.day)])
        default:
            let day = start.date.daysSinceEpoch + steps
            guard day <= Self.lastDay else { return nil }
            let date = CivilDate(daysSinceEpoch: day)
            return (date, [Span(month: MonthFigures(year: date.year, month: date.month), days: date.day...date.day)])
        }
    }

    private static func wholeMonth(_ year: Int, _ month: Int) -> Span {
        let figures = MonthFigures(year: year, month: month)
        return Span(month: figures, days: 1...figures.length)
    }

    /// The period holding `date` (0 for DTSTART's, and for anything before it).
    private func periodIndex(containing date: CivilDate) -> Int {
        let elapsed = switch parts.frequency {
        case .daily: date.daysSinceEpoch - start.date.daysSinceEpoch
        case .weekly: (weekBeginning(date).daysSinceEpoch - weekBeginning(start.date).daysSinceEpoch) / 7
        case .monthly: (date.year - start.date.year) * 12 + date.month - start.date.month
        default: date.year - start.date.year
        }
        return max(0, elapsed / parts.interval)
    }

    private func weekBeginning(_ date: CivilDate) -> CivilDate { date.adding(days: -((date.weekday - parts.weekStart + 7) % 7)) }

    // MARK: HOURLY, MINUTELY, SECONDLY

    /// Day by day, each day that holds an aligned period and passes the day-level
    /// parts giving its periods; a day without an aligned period is jumped over.
    private func walkDays(_ output: inout Output, skipTo: LocalDateTime?) {
        let unit: Int64 = parts.frequency == .hourly ? 3_600 : parts.frequency == .minutely ? 60 : 1
        let (step, overflow) = Int64(parts.interval).multipliedReportingOverflow(by: unit)
        guard !overflow else { return }
        let origin = floorDiv(start.wallSeconds, unit) * unit
        var day = max(start.date.daysSinceEpoch, skipTo.map { $0.date.daysSinceEpoch - 1 } ?? .min)
        let deadline = ContinuousClock.now + timeBudget
        for visit in 0... {
            guard day <= Self.lastDay else { return }
            let dayStart = Int64(day) * 86_400
            if dayStart >= output.to.wallSeconds { return }
            if visit >= periodBudget || (visit % 256 == 255 && ContinuousClock.now > deadline) { output.truncated = true; return }
            let first = origin + max(0, ceilDiv(dayStart - origin, step)) * step
            if first >= dayStart + 86_400 {
                // The next aligned period is on a later day: go straight there.
                let next = floorDiv(first, 86_400)
                guard next <= Int64(Self.lastDay) else { return }
                day = Int(next)
                continue
            }
            let date = CivilDate(daysSinceEpoch: day)
            if parts.accepts(date.day, of: MonthFigures(year: date.year, month: date.month)) {
                // An all-day series has no time parts, so its first aligned period is its day.
                let periods = isDate ? [first] : periods(from: first, before: dayStart + 86_400, dayStart: dayStart, step: step)
                for period in periods {
                    for instance in selected(expanded(period)) where !output.offer(instance) { return }
                }
            }
            day += 1
        }
    }

    /// The aligned period starts in one day that BYHOUR (and BYMINUTE, BYSECOND
    /// at their frequencies) let through: by stepping, or through the allowed
    /// values, whichever is fewer.
    private func periods(from first: Int64, before end: Int64, dayStart: Int64, step: Int64) -> [Int64] {
        let hours = parts.hours ?? Array(0..<24)
        let minutes = parts.frequency == .hourly ? [0] : parts.minutes ?? Array(0..<60)
        let seconds = parts.frequency == .secondly ? parts.seconds ?? Array(0..<60) : [0]
        let allowed = hours.count * minutes.count * seconds.count
        let stepped = (end - first + step - 1) / step
        if stepped <= Int64(allowed) {
            return stride(from: first, to: end, by: Int(step)).filter { time in
                let offset = Int(time - dayStart)
                return (parts.hours?.contains(offset / 3_600) ?? true)
                    && (parts.frequency == .hourly || (parts.minutes?.contains(offset / 60 % 60) ?? true))
                    && (parts.frequency != .secondly || (parts.seconds?.contains(offset % 60) ?? true))
            }
        }
        var result: [Int64] = []
        for hour in hours { for minute in minutes { for second in seconds {
            let time = dayStart + Int64(hour * 3_600 + minute * 60 + second)
            if time >= first, (time - first) % step == 0 { result.append(time) }
        } } }
        return result
    }

    /// One shorter-than-daily period's set: an hour expands by BYMINUTE and
    /// BYSECOND, a minute by BYSECOND (DTSTART's minute and second when absent).
    private func expanded(_ period: Int64) -> [LocalDateTime] {
        let offsets: [Int64] = switch parts.frequency {
        case .hourly: (parts.minutes ?? [start.minute]).flatMap { minute in (parts.seconds ?? [start.second]).map { Int64(minute * 60 + $0) } }
        case .minutely: (parts.seconds ?? [start.second]).map(Int64.init)
        default: [0]
        }
        return offsets.map { offset in
            let time = LocalDateTime(wallSeconds: period + offset)
            return isDate ? LocalDateTime(date: time.date) : time
        }
    }

    // MARK: BYSETPOS

    /// BYSETPOS over one period's sorted set (every instance when absent).
    private func selected(_ set: [LocalDateTime]) -> [LocalDateTime] {
        guard !parts.setPositions.isEmpty else { return set }
        var picked = Set<Int>()
        for position in parts.setPositions {
            let offset = position > 0 ? position - 1 : set.count + position
            if offset >= 0, offset < set.count { picked.insert(offset) }
        }
        return picked.sorted().map { set[$0] }
    }
}

extension GregorianRuleExpander {
    /// What the walk has found: COUNT counted from DTSTART, UNTIL, the window and the limit.
    struct Output {
        let start: LocalDateTime
        let count: Int?
        let until: LocalDateTime?
        let from: LocalDateTime?
        let to: LocalDateTime
        let limit: Int
        var found: [LocalDateTime] = []
        var seen = 0
        var last: LocalDateTime?
        var truncated = false

        init(start: LocalDateTime, count: Int?, until: LocalDateTime?, from: LocalDateTime?, to: LocalDateTime, limit: Int) {
            (self.start, self.count, self.until, self.from, self.to, self.limit) = (start, count, until, from, to, limit)
        }

        /// Takes the next instance in order; false once nothing later can be wanted.
        mutating func offer(_ instance: LocalDateTime) -> Bool {
            if instance < start { return true }              // DTSTART's period began before it
            if let last, instance <= last { return true }    // the same day again (an all-day HOURLY rule)
            last = instance
            if let until, instance > until { return false }
            seen += 1
            if let count, seen > count { return false }
            if instance >= to { return false }
            if let from, instance < from { return true }
            if found.count == limit { truncated = true; return false }
            found.append(instance)
            return true
        }

        var result: RuleExpander.Result { .init(occurrences: found, truncated: truncated) }
    }
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

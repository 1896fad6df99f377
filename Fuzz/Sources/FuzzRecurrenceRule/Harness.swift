import ICalendar

/// The RRULE parser, and for every rule it accepts (strictly or leniently), a
/// bounded expansion from a DTSTART chosen by the input, checked against what
/// RFC 5545 promises of any answer (issue #61): sorted and unique, within the
/// window and the limit, no more than COUNT, nothing after UNTIL, every
/// instance on the INTERVAL's steps, and every instance allowed by every
/// BYxxx part (a part that expands must still hold for what it made).
/// A broken promise traps, which libFuzzer reports as a crash with the input.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecurrenceRule(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let rule = (try? RecurrenceRule(parsing: text)) ?? (try? RecurrenceRule(parsing: text, lenient: true)) else { return 0 }
    let seed = bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }
    let isDate = seed % 3 == 0
    let start = LocalDateTime(year: 1990 + seed % 60, month: 1 + seed % 12, day: 1 + seed % 28,
                              hour: isDate ? 0 : seed % 24, minute: isDate ? 0 : (seed / 24) % 60, second: isDate ? 0 : (seed / 7) % 60)
    let windowed = seed % 2 == 0
    let from = windowed ? LocalDateTime(year: 2026, month: 1, day: 1) : nil
    let to = LocalDateTime(year: windowed ? 2027 : 2040, month: 1, day: 1)
    let limit = 1_000
    let result = RuleExpander(rule: rule, start: start, isDate: isDate).expand(from: from, to: to, limit: limit)
    RuleInvariants(rule: rule, start: start, isDate: isDate).check(result.occurrences, from: from, to: to, limit: limit)
    return 0
}

/// What every expansion must satisfy, computed here from the rule's text alone.
struct RuleInvariants {
    let rule: RecurrenceRule
    let start: LocalDateTime
    let isDate: Bool

    func check(_ found: [LocalDateTime], from: LocalDateTime?, to: LocalDateTime, limit: Int) {
        precondition(found.count <= limit, "more than the limit")
        for (earlier, later) in zip(found, found.dropFirst()) { precondition(earlier < later, "not sorted and unique: \(earlier) \(later)") }
        for instance in found {
            precondition(instance >= start, "\(instance) before DTSTART \(start)")
            precondition(instance < to && instance >= (from ?? instance), "\(instance) outside the window")
            if isDate { precondition(instance.hour == 0 && instance.minute == 0 && instance.second == 0, "an all-day instance with a time") }
            precondition(matchesParts(instance), "\(instance) is not allowed by \(rule)")
            precondition(onStep(instance), "\(instance) is off the INTERVAL's steps of \(rule) from \(start)")
        }
        // COUNT: from the start (no window), at most COUNT of the rule's instances. The
        // RSCALE expander answers with DTSTART first whatever COUNT says (a lenient
        // COUNT=0 keeps DTSTART alone, which the series shows anyway).
        if from == nil, let count = rule.count {
            precondition(found.count <= max(count, rule.value("RSCALE") == nil ? 0 : 1), "more than COUNT")
        }
        if let until = rule.until {
            let last = until.isAllDay || isDate ? LocalDateTime(date: until.civilDate, hour: 23, minute: 59, second: 59) : until.local
            for instance in found { precondition(instance <= last, "\(instance) after UNTIL") }
        }
    }

    private func values(_ key: String) -> [Int]? {
        rule.value(key) == nil ? nil : rule.integers(key)
    }

    private func matchesParts(_ instance: LocalDateTime) -> Bool {
        let date = instance.date
        let monthLength = CivilDate.daysIn(month: date.month, year: date.year)
        let yearLength = CivilDate.isLeap(date.year) ? 366 : 365
        let yearDay = date.daysSinceEpoch - CivilDate(year: date.year, month: 1, day: 1).daysSinceEpoch + 1
        if let months = values("BYMONTH"), rule.value("RSCALE") == nil, !months.contains(date.month) { return false }
        if let days = values("BYMONTHDAY"), rule.value("RSCALE") == nil, !days.contains(date.day), !days.contains(date.day - monthLength - 1) { return false }
        if let days = values("BYYEARDAY"), rule.value("RSCALE") == nil, !days.contains(yearDay), !days.contains(yearDay - yearLength - 1) { return false }
        if !rule.list("BYDAY").isEmpty, rule.value("RSCALE") == nil {
            let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            guard rule.list("BYDAY").contains(where: { codes.firstIndex(of: String($0.suffix(2))) == date.weekday }) else { return false }
        }
        if !isDate {
            if let hours = values("BYHOUR"), !hours.contains(instance.hour) { return false }
            if let minutes = values("BYMINUTE"), !minutes.contains(instance.minute) { return false }
            if let seconds = values("BYSECOND"), !seconds.map({ min($0, 59) }).contains(instance.second) { return false }
        }
        return true
    }

    /// Instances lie on DTSTART's periods plus multiples of INTERVAL.
    private func onStep(_ instance: LocalDateTime) -> Bool {
        guard rule.value("RSCALE") == nil else { return true }
        let interval = max(1, rule.interval)
        let steps: Int
        switch rule.frequency {
        case .yearly: steps = instance.date.year - start.date.year
        case .monthly: steps = (instance.date.year - start.date.year) * 12 + instance.date.month - start.date.month
        case .weekly:
            let weekStart = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: rule.value("WKST") ?? "MO") ?? 1
            func begin(_ date: CivilDate) -> Int { date.daysSinceEpoch - (date.weekday - weekStart + 7) % 7 }
            steps = (begin(instance.date) - begin(start.date)) / 7
        case .daily: steps = instance.date.daysSinceEpoch - start.date.daysSinceEpoch
        case .hourly, .minutely, .secondly:
            guard !isDate else { return true }
            let unit: Int64 = rule.frequency == .hourly ? 3_600 : rule.frequency == .minutely ? 60 : 1
            func floor(_ value: Int64) -> Int64 { value >= 0 ? value / unit : -((-value + unit - 1) / unit) }
            return (floor(instance.wallSeconds) - floor(start.wallSeconds)) % Int64(interval) == 0
        }
        return steps % interval == 0
    }
}

import Foundation

/// What one VEVENT/VTODO says about its instances: the anchor start, how long
/// each lasts, and which rules, dates and exclusions produce them.
struct SeriesShape {
    /// How an instance's end follows from its start. Nominal days and wall-clock
    /// time follow the start's zone across DST; exact seconds do not.
    struct Span {
        var days = 0
        var wallSeconds: Int64 = 0
        var exactSeconds: Int64 = 0
        var isEmpty: Bool { days == 0 && wallSeconds == 0 && exactSeconds == 0 }
        var approximateSeconds: Int64 { Int64(days) * 86_400 + wallSeconds + exactSeconds }
    }

    let componentName: String
    let uid: String
    let summary: String?
    /// DTSTART, or DUE for a task without one.
    let start: DateTimeValue?
    let span: Span?
    let rules: [RecurrenceRule]
    /// RDATEs, already in DTSTART's shape (`RecurrenceDate.shaped(like:)`).
    let rdates: [RecurrenceDate]
    let exdates: [DateTimeValue]
    /// RFC 2445's EXRULE: removed from RFC 5545 but still found in old files.
    let exrules: [RecurrenceRule]

    var isRecurring: Bool { !rules.isEmpty || !rdates.isEmpty }

    init?(_ component: Component, resolver: ZoneResolver) {
        componentName = component.name
        uid = component.first("UID")?.text ?? ""
        summary = component.first("SUMMARY")?.text
        var dtstart = component.first("DTSTART").flatMap(DateTimeValue.init(property:))
        let due = component.first("DUE").flatMap(DateTimeValue.init(property:))
        let isTodo = component.name == "VTODO"
        var dtend = isTodo ? nil : component.first("DTEND").flatMap(DateTimeValue.init(property:))
        // An event that ends before it starts had its two times written the wrong
        // way round; calendar clients and recurring-ical-events swap them.
        if let first = dtstart, let last = dtend, resolver.instant(of: last) < resolver.instant(of: first) {
            (dtstart, dtend) = (last, first)
        }
        guard let anchor = dtstart ?? (isTodo ? due : nil) else { return nil }
        start = anchor
        let endValue = isTodo ? (dtstart == nil ? nil : due) : dtend
        let duration = component.first("DURATION").flatMap { ICalDuration(parsing: $0.value) }
        span = Self.span(start: anchor, end: endValue, duration: duration, isTodo: isTodo, resolver: resolver)
        // A rule that never matches from this DTSTART adds nothing; left out, it costs no search (`UnreachableRule`).
        rules = component.all("RRULE").compactMap { try? RecurrenceRule(parsing: $0.value, lenient: true) }
            .filter { UnreachableRule.problem(with: $0, from: anchor) == nil }
        rdates = component.all("RDATE").flatMap { RecurrenceDate.values(of: $0, lenient: true) ?? [] }.map { $0.shaped(like: anchor) }
        exdates = component.all("EXDATE").flatMap { DateTimeValue.values(of: $0) ?? [] }
        exrules = component.all("EXRULE").compactMap { try? RecurrenceRule(parsing: $0.value, lenient: true) }
    }

    private static func span(start: DateTimeValue, end: DateTimeValue?, duration: ICalDuration?, isTodo: Bool,
                             resolver: ZoneResolver) -> Span? {
        if let end, resolver.instant(of: end) >= resolver.instant(of: start) {
            if start.isAllDay, end.isAllDay { return Span(days: end.civilDate.daysSinceEpoch - start.civilDate.daysSinceEpoch) }
            if resolver.zone(of: start) == resolver.zone(of: end), !start.isAllDay, !end.isAllDay {
                return Span(wallSeconds: end.local.wallSeconds - start.local.wallSeconds)
            }
            return Span(exactSeconds: Int64(resolver.instant(of: end).timeIntervalSince(resolver.instant(of: start))))
        }
        if let duration, !duration.isNegative {
            return Span(days: duration.days, exactSeconds: Int64(duration.seconds))
        }
        if isTodo { return nil }
        return start.isAllDay ? Span(days: 1) : Span()
    }

    /// Series instance starts near `window` (DTSTART is added by the caller).
    func instanceStarts(in window: DateInterval, limit: Int, resolver: ZoneResolver) -> (starts: [DateTimeValue], truncated: Bool) {
        expand(rules, in: window, limit: limit, resolver: resolver, withDates: true)
    }

    /// Starts that EXRULEs remove near `window`.
    func excludedStarts(in window: DateInterval, limit: Int, resolver: ZoneResolver) -> [DateTimeValue] {
        exdates + expand(exrules, in: window, limit: limit, resolver: resolver, withDates: false).starts
    }

    private func expand(_ rules: [RecurrenceRule], in window: DateInterval, limit: Int, resolver: ZoneResolver,
                        withDates: Bool) -> (starts: [DateTimeValue], truncated: Bool) {
        guard let start else { return ([], false) }
        let zone = resolver.zone(of: start)
        // Bounds for iteration only, so UTC wall time padded by a day (no zone is
        // more than 14 hours from UTC) will do. Asking libical for far-future
        // offsets instead makes it grow the zone's change table out to that year.
        let reach = (span?.approximateSeconds ?? 0) + 2 * 86_400
        let wallFrom = LocalDateTime(wallSeconds: Self.clampedSeconds(window.start) - reach)
        let wallTo = LocalDateTime(wallSeconds: Self.clampedSeconds(window.end) + 2 * 86_400)
        var starts: [DateTimeValue] = []
        var truncated = false
        for rule in rules {
            let expander = RuleExpander(rule: localized(rule, start: start, zone: zone), start: start.local, isDate: start.isAllDay)
            let result = expander.expand(from: wallFrom, to: wallTo, limit: limit)
            truncated = truncated || result.truncated
            starts += result.occurrences.map { start.with(local: $0) }
        }
        guard withDates else { return (starts, truncated) }
        starts += rdates.map(\.start)
        return (starts, truncated)
    }

    /// Seconds since 1970 kept within years 1 to 9999, which `distantPast` and `distantFuture` exceed.
    static func clampedSeconds(_ date: Date) -> Int64 {
        Int64(min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799).rounded(.down))
    }

    /// UNTIL is compared with wall times by the expanders, so a UTC UNTIL is moved
    /// into the start's zone first (and cut to a date for all-day series).
    private func localized(_ rule: RecurrenceRule, start: DateTimeValue, zone: Zone) -> RecurrenceRule {
        guard let until = rule.until else { return rule }
        if start.isAllDay {
            return rule.setting("UNTIL", until.civilDate.basic)
        }
        switch until {
        case .utc(let local):
            let wall = zone.local(of: Zone.utc.instant(of: local))
            return rule.setting("UNTIL", wall.basic)
        case .date(let date):
            return rule.setting("UNTIL", LocalDateTime(date: date, hour: 23, minute: 59, second: 59).basic)
        default:
            return rule.setting("UNTIL", until.local.basic)
        }
    }

    func occurrence(at start: DateTimeValue, recurring: Bool, resolver: ZoneResolver) -> Occurrence {
        let startInstant = resolver.instant(of: start)
        var end: DateTimeValue?
        var endInstant: Date?
        if let span {
            let endWall = LocalDateTime(wallSeconds: start.local.wallSeconds + Int64(span.days) * 86_400 + span.wallSeconds)
            let wallEnd = start.with(local: endWall)
            let instant = resolver.instant(of: wallEnd).addingTimeInterval(TimeInterval(span.exactSeconds))
            endInstant = instant
            end = span.exactSeconds == 0 ? wallEnd : .utc(Zone.utc.local(of: instant))
        }
        if case .period(let period)? = rdates.first(where: { resolver.instant(of: $0.start) == startInstant }) {
            switch period.span {
            case .end(let value): end = value; endInstant = resolver.instant(of: value)
            case .duration(let duration):
                endInstant = startInstant.addingTimeInterval(TimeInterval(duration.signedDays * 86_400 + duration.signedSeconds))
                end = .utc(Zone.utc.local(of: endInstant!))
            }
        }
        return Occurrence(componentName: componentName, uid: uid, summary: summary, start: start, end: end,
                          startInstant: startInstant, endInstant: endInstant,
                          recurrenceId: recurring ? start : nil, recurrenceInstant: recurring ? startInstant : nil,
                          isOverride: false)
    }
}

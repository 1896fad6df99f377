import Foundation

/// Expands events and tasks into occurrences over a window: RRULEs (several
/// allowed), RDATE (dates, date-times, periods), EXDATE, and RECURRENCE-ID
/// overrides that move or cancel an instance. Output is sorted, unique, and
/// bounded by the caller's limit so that no rule can exhaust the process.
public struct OccurrenceExpander: Sendable {
    public struct Result: Sendable {
        public var occurrences: [Occurrence]
        /// True when the limit cut the expansion short.
        public var truncated: Bool
    }

    /// What to do with cancelled events and instances (STATUS:CANCELLED).
    public enum Cancelled: Sendable {
        /// Leave them out, as a calendar client hides them (countdowns, feeds).
        case skip
        /// List them with `status == .cancelled`, so a tool can show them struck through.
        case include
    }

    public let resolver: ZoneResolver
    public let cancelled: Cancelled

    /// The most starts one series is asked for while looking for `limit` that overlap a window
    /// (the rule expander's own iteration budget bounds the walk, too).
    static let maxLookahead = 200_000

    public init(calendar: VCalendar, floatingZone: Zone = .utc, cancelled: Cancelled = .skip) {
        resolver = ZoneResolver(calendar: calendar, floatingZone: floatingZone)
        self.cancelled = cancelled
    }

    public init(resolver: ZoneResolver, cancelled: Cancelled = .skip) {
        self.resolver = resolver
        self.cancelled = cancelled
    }

    public func occurrences(in calendar: VCalendar, in window: DateInterval, limit: Int) -> Result {
        occurrences(of: calendar.events.map(\.component) + calendar.todos.map(\.component), in: window, limit: limit)
    }

    public func occurrences(of events: [VEvent], in window: DateInterval, limit: Int) -> Result {
        occurrences(of: events.map(\.component), in: window, limit: limit)
    }

    /// Items grouped into series, each master's shape read once (its rules
    /// parsed, its zone found), for several expansions of the same items: a
    /// countdown's series asks two to four, and reading the shape each time
    /// was a seventh of a large feed's first page.
    public struct Prepared: Sendable {
        let series: [(series: RecurringSeries, shape: SeriesShape?)]
    }

    public func prepare(_ items: [Component]) -> Prepared {
        Prepared(series: RecurringSeries.group(items).map { ($0, $0.master.flatMap { SeriesShape($0, resolver: resolver) }) })
    }

    /// Occurrences that overlap `window` (start < window.end and end > window.start;
    /// an instant event counts when it starts inside), as recurring-ical-events does.
    public func occurrences(of items: [Component], in window: DateInterval, limit: Int) -> Result {
        occurrences(of: prepare(items), in: window, limit: limit)
    }

    /// The same for items prepared once (`prepare`) by this expander.
    public func occurrences(of prepared: Prepared, in window: DateInterval, limit: Int) -> Result {
        var all: [Occurrence] = []
        var truncated = false
        for (series, shape) in prepared.series {
            let result = expand(series, shape: shape, in: window, limit: limit)
            all += result.occurrences
            truncated = truncated || result.truncated
        }
        // By start, then UID and summary for a stable order; strings only on a tie.
        all.sort { a, b in
            if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
            if a.uid != b.uid { return a.uid < b.uid }
            return (a.summary ?? "") < (b.summary ?? "")
        }
        if all.count > limit {
            all.removeLast(all.count - limit)
            truncated = true
        }
        return Result(occurrences: all, truncated: truncated)
    }

    /// The first occurrence starting at or after `instant`. Widens its search
    /// window step by step; the expanders jump ahead, so a yearly rule from 1900 is cheap.
    public func nextOccurrence(of items: [Component], atOrAfter instant: Date) -> Occurrence? {
        for years in [1.0, 10, 100, 1000] {
            let window = DateInterval(start: instant, duration: years * 366 * 86_400)
            let found = occurrences(of: items, in: window, limit: 10_000).occurrences.filter { $0.startInstant >= instant }
            if let first = found.first { return first }
        }
        return nil
    }

    func expand(_ series: RecurringSeries, shape masterShape: SeriesShape?, in window: DateInterval, limit: Int) -> Result {
        var result: [Occurrence] = []
        var truncated = false
        let overrides = winningOverrides(series.overrides)
        let seriesIsAllDay = masterShape?.start?.isAllDay ?? false
        // An override replaces the instance its RECURRENCE-ID names, matched as
        // EXDATE is: by date when either side is a DATE (Outlook names an all-day
        // instance by local midnight in a Windows zone), else by instant.
        let replaced = Exclusions(overrides.map(\.recurrenceId), seriesIsAllDay: seriesIsAllDay, resolver: resolver)
        // Instances the master excludes stay deleted, even where an override of
        // them was left in the file: clients add the EXDATE when an edited
        // instance is deleted and often keep the old override.
        var deleted = Exclusions([], seriesIsAllDay: seriesIsAllDay, resolver: resolver)
        let ranges = overrides.compactMap { RangeOverride($0.component, resolver: resolver) }
            .sorted { $0.recurrenceInstant < $1.recurrenceInstant }
        if let master = series.master, let shape = masterShape {
            let masterStatus = Occurrence.Status(of: master)
            // Instances a THISANDFUTURE override moves into the window start outside it.
            let reach = ranges.map(\.reach).max() ?? 0
            let search = DateInterval(start: window.start.addingTimeInterval(-reach), end: window.end.addingTimeInterval(reach))
            // The rule is walked from a little before the window (its span and two days: what could still
            // overlap it, whatever the zone), so the first starts it gives may end before the window. Those
            // must not use up `limit`: a daily series asked for one instance of a window three days after its
            // start gave only the day before the window, and matched nothing (issue #62, 1). So the rule is
            // asked for more until `limit` instances overlap the window, or it has no more to give.
            var ask = limit
            while true {
                result = []
                var starts = shape.start.map { [$0] } ?? []
                let seriesStarts = shape.instanceStarts(in: search, limit: ask, resolver: resolver)
                starts += seriesStarts.starts
                truncated = seriesStarts.truncated
                let exclusions = Exclusions(shape.excludedStarts(in: search, limit: ask, resolver: resolver),
                                            seriesIsAllDay: seriesIsAllDay, resolver: resolver)
                deleted = exclusions
                var seen = Set<Date>()
                for start in starts {
                    let instant = resolver.instant(of: start)
                    guard seen.insert(instant).inserted, !exclusions.excludes(start, at: instant),
                          !replaced.excludes(start, at: instant) else { continue }
                    var occurrence: Occurrence
                    if let range = ranges.last(where: { $0.recurrenceInstant < instant }) {
                        occurrence = range.reshape(start, resolver: resolver)
                    } else {
                        occurrence = shape.occurrence(at: start, recurring: shape.isRecurring, resolver: resolver)
                        occurrence.status = masterStatus
                    }
                    if occurrence.isCancelled, cancelled == .skip { continue }
                    if overlaps(occurrence, window) { result.append(occurrence) }
                }
                // Done when enough overlap, or when the rule gave fewer than asked (it has no more here, or
                // its walk hit the expander's own budget), or when asking more would pass what one expansion may walk.
                let cutByAsk = seriesStarts.starts.count >= ask
                guard result.count < limit, cutByAsk, ask < Self.maxLookahead else { break }
                ask = min(ask.multipliedReportingOverflow(by: 8).partialValue, Self.maxLookahead)
            }
        }
        for (instant, recurrenceId, override) in overrides where !deleted.excludes(recurrenceId, at: instant) {
            let status = Occurrence.Status(of: override)
            guard status != .cancelled || cancelled == .include,
                  let shape = SeriesShape(override, resolver: resolver), let start = shape.start else { continue }
            var occurrence = shape.occurrence(at: start, recurring: false, resolver: resolver)
            occurrence.recurrenceId = recurrenceId
            occurrence.recurrenceInstant = instant
            occurrence.isOverride = true
            occurrence.status = status
            if overlaps(occurrence, window) { result.append(occurrence) }
        }
        return Result(occurrences: result, truncated: truncated)
    }

    /// One override per instance: where a file holds several edits of the same
    /// instance, the latest edit (`EditPrecedence`) stands for it.
    /// Kept in file order, so that output stays byte-stable.
    private func winningOverrides(_ overrides: [Component]) -> [(instant: Date, recurrenceId: DateTimeValue, component: Component)] {
        var winners: [(instant: Date, recurrenceId: DateTimeValue, component: Component)] = []
        var slot: [Date: Int] = [:]
        for override in overrides {
            guard let id = override.first("RECURRENCE-ID").flatMap(DateTimeValue.init(property:)) else { continue }
            let instant = resolver.instant(of: id)
            if let index = slot[instant] {
                if EditPrecedence.replaces(override, winners[index].component) { winners[index] = (instant, id, override) }
            } else {
                slot[instant] = winners.count
                winners.append((instant, id, override))
            }
        }
        return winners
    }

    private func overlaps(_ occurrence: Occurrence, _ window: DateInterval) -> Bool {
        let start = occurrence.startInstant
        let end = occurrence.endInstant ?? start
        if end > start { return start < window.end && end > window.start }
        return start >= window.start && start < window.end
    }
}

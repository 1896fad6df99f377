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

    public let resolver: ZoneResolver

    public init(calendar: VCalendar, floatingZone: Zone = .utc) {
        resolver = ZoneResolver(calendar: calendar, floatingZone: floatingZone)
    }

    public init(resolver: ZoneResolver) { self.resolver = resolver }

    public func occurrences(in calendar: VCalendar, in window: DateInterval, limit: Int) -> Result {
        occurrences(of: calendar.events.map(\.component) + calendar.todos.map(\.component), in: window, limit: limit)
    }

    public func occurrences(of events: [VEvent], in window: DateInterval, limit: Int) -> Result {
        occurrences(of: events.map(\.component), in: window, limit: limit)
    }

    /// Occurrences that overlap `window` (start < window.end and end > window.start;
    /// an instant event counts when it starts inside), as recurring-ical-events does.
    public func occurrences(of items: [Component], in window: DateInterval, limit: Int) -> Result {
        var all: [Occurrence] = []
        var truncated = false
        for series in RecurringSeries.group(items) {
            let result = expand(series, in: window, limit: limit)
            all += result.occurrences
            truncated = truncated || result.truncated
        }
        all.sort { ($0.startInstant, $0.uid, $0.summary ?? "") < ($1.startInstant, $1.uid, $1.summary ?? "") }
        if all.count > limit {
            all.removeLast(all.count - limit)
            truncated = true
        }
        return Result(occurrences: all, truncated: truncated)
    }

    /// The first occurrence starting at or after `instant`. Widens its search
    /// window step by step; libical jumps ahead, so a yearly rule from 1900 is cheap.
    public func nextOccurrence(of items: [Component], atOrAfter instant: Date) -> Occurrence? {
        for years in [1.0, 10, 100, 1000] {
            let window = DateInterval(start: instant, duration: years * 366 * 86_400)
            let found = occurrences(of: items, in: window, limit: 10_000).occurrences.filter { $0.startInstant >= instant }
            if let first = found.first { return first }
        }
        return nil
    }

    func expand(_ series: RecurringSeries, in window: DateInterval, limit: Int) -> Result {
        var result: [Occurrence] = []
        var truncated = false
        var replaced: [Date: Component] = [:]
        for override in series.overrides {
            guard let id = override.first("RECURRENCE-ID").flatMap(DateTimeValue.init(property:)) else { continue }
            replaced[resolver.instant(of: id)] = override
        }
        if let master = series.master, let shape = SeriesShape(master, resolver: resolver) {
            var starts = shape.start.map { [$0] } ?? []
            let seriesStarts = shape.instanceStarts(in: window, limit: limit, resolver: resolver)
            starts += seriesStarts.starts
            truncated = seriesStarts.truncated
            let excluded = Set(shape.excludedStarts(in: window, limit: limit, resolver: resolver).map { resolver.instant(of: $0) })
            var seen = Set<Date>()
            for start in starts {
                let instant = resolver.instant(of: start)
                guard seen.insert(instant).inserted, !excluded.contains(instant) else { continue }
                if replaced[instant] != nil { continue }
                let occurrence = shape.occurrence(at: start, recurring: shape.isRecurring, resolver: resolver)
                if overlaps(occurrence, window) { result.append(occurrence) }
            }
        }
        for override in series.overrides {
            guard VEvent(component: override).status != "CANCELLED",
                  let shape = SeriesShape(override, resolver: resolver), let start = shape.start else { continue }
            var occurrence = shape.occurrence(at: start, recurring: false, resolver: resolver)
            occurrence.recurrenceId = override.first("RECURRENCE-ID").flatMap(DateTimeValue.init(property:))
            occurrence.recurrenceInstant = occurrence.recurrenceId.map(resolver.instant(of:))
            occurrence.isOverride = true
            if overlaps(occurrence, window) { result.append(occurrence) }
        }
        return Result(occurrences: result, truncated: truncated)
    }

    private func overlaps(_ occurrence: Occurrence, _ window: DateInterval) -> Bool {
        let start = occurrence.startInstant
        let end = occurrence.endInstant ?? start
        if end > start { return start < window.end && end > window.start }
        return start >= window.start && start < window.end
    }
}

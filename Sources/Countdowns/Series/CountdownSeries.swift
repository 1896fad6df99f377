import Foundation
import ICalendar

/// A countdown with its recurrence prepared once: the iCalendar components and
/// expander are built when the series is made, and the occurrences around the
/// instant it was prepared for are expanded then and kept.
///
/// Why: a feed is read far more often than it changes, and JSON, pages and cards
/// are re-derived every minute. Re-expanding every countdown each minute costs
/// libical work per countdown; answering "which occurrence is next?" from a short
/// sorted list costs a comparison or two. When the clock moves past what was kept
/// (`validUntil`), answers fall back to a fresh expansion, which is always right,
/// and the owner of the series should prepare it again.
///
/// Both the remaining-time calculation and the countdown calendar read
/// occurrences only through this type.
public struct CountdownSeries: Sendable {
    public let countdown: Countdown
    /// The zone floating times were read in when the kept occurrences were expanded.
    public let floatingZone: Zone
    /// Most occurrences one expansion may produce, so no rule can exhaust the process.
    public let maxOccurrences: Int
    /// Kept occurrences overlap `[coveredFrom, ∞)`; nothing is known before it except `earlier`.
    let coveredFrom: Date
    /// Occurrences overlapping `[coveredFrom, ∞)`, sorted by start, at most `keptOccurrences`.
    let kept: [Occurrence]
    /// True when more occurrences follow `kept.last`.
    let keptTruncated: Bool
    /// The latest occurrence starting before `coveredFrom` (nil when there is none).
    var earlier: Occurrence? { earlierOne.first }
    /// `earlier`, held out of line: inline it was 185 of a series' 848 bytes
    /// in every series, and one-offs (most of a feed) have none (issue #41).
    private let earlierOne: [Occurrence]
    /// True when the countdown's times depend on the viewer's zone (floating date-times).
    let isFloating: Bool
    /// Occurrence dates in `floatingZone` (the feed's zone) over the next year or
    /// so, for the countdown calendar, which is rendered daily: expanded once
    /// here, not once a day. Complete for `datesCover`.
    let keptDates: [CivilDate]
    let datesCover: ClosedRange<Int>?
    /// The components and expander, kept only when a later question may need a
    /// fresh expansion (a repeat, a floating or a cut-off one-off). The other
    /// one-offs answer everything from `kept`, so 10,000 of them do not hold
    /// 10,000 component trees; `expansion(for:)` rebuilds one if ever asked.
    let prepared: (items: [Component], expander: OccurrenceExpander)?

    /// How many upcoming occurrences a repeating series keeps: a few weeks of a
    /// daily repeat, years of a yearly one, and little memory for 10,000 countdowns.
    public static let keptOccurrences = 8
    /// Occurrences that may still be running or "today" somewhere are kept this far back.
    static let lookback: TimeInterval = 3 * 86_400

    /// Prepares `countdown` around `instant`: its components, its expander, and
    /// the occurrences a viewer at `instant` (or a while after) asks for.
    /// `keepingDates: false` leaves out the year of dates only the countdown
    /// calendar reads (a place in a list needs none: `PlaceBound`).
    public init(_ countdown: Countdown, preparedAt instant: Date, floatingZone: Zone, maxOccurrences: Int = 100_000, keepingDates: Bool = true) {
        self.countdown = countdown
        self.floatingZone = floatingZone
        self.maxOccurrences = maxOccurrences
        let items = Self.components(for: countdown)
        let expander = Self.expander(for: countdown, floatingZone: floatingZone)
        // The shapes read once for the two to four expansions below.
        let shaped = expander.prepare(items)
        isFloating = Self.usesFloatingTime(countdown)
        if !countdown.isRepeating {
            // A one-off (with any overrides): the whole series, once.
            let all = expander.occurrences(of: shaped, in: DateInterval(start: .distantPast, end: .distantFuture), limit: min(64, maxOccurrences))
            coveredFrom = .distantPast
            kept = all.occurrences.map(Self.slim(countdown))
            keptTruncated = all.truncated
            earlierOne = []
            keptDates = []
            datesCover = nil
            prepared = all.truncated || isFloating ? (items, expander) : nil
        } else {
            let from = instant.addingTimeInterval(-Self.lookback)
            let window = DateInterval(start: from, end: from.addingTimeInterval(1_000 * 365.25 * 86_400))
            let ahead = expander.occurrences(of: shaped, in: window, limit: min(Self.keptOccurrences, maxOccurrences))
            coveredFrom = from
            kept = ahead.occurrences.map(Self.slim(countdown))
            keptTruncated = ahead.truncated
            earlierOne = Self.latest(startingBefore: from, shaped, expander, limit: maxOccurrences).map { [Self.slim(countdown)($0)] } ?? []
            let dates = keepingDates ? Self.datesAhead(from: floatingZone.local(of: instant).date, shaped, expander, zone: floatingZone,
                                                       limit: min(Self.keptDays + 8, maxOccurrences)) : (dates: [], cover: nil)
            keptDates = dates.dates
            datesCover = dates.cover
            prepared = (items, expander)
        }
    }

    /// How far ahead a repeating series keeps its dates: the countdown calendar's usual window and then some.
    static let keptDays = 400

    /// Distinct dates from `today` on, and the day numbers they are complete for.
    private static func datesAhead(from today: CivilDate, _ items: OccurrenceExpander.Prepared, _ expander: OccurrenceExpander, zone: Zone,
                                   limit: Int) -> (dates: [CivilDate], cover: ClosedRange<Int>?) {
        let start = zone.instant(of: LocalDateTime(date: today))
        let window = DateInterval(start: start, end: zone.instant(of: LocalDateTime(date: today.adding(days: keptDays + 1))))
        let result = expander.occurrences(of: items, in: window, limit: limit)
        let dates = Array(Set(result.occurrences.map { $0.isAllDay ? $0.start.civilDate : zone.local(of: $0.startInstant).date }
            .filter { $0 >= today })).sorted()
        // When the limit cut the list, only the days before the last date found are complete.
        let through = result.truncated ? (dates.last?.daysSinceEpoch ?? today.daysSinceEpoch) - 1 : today.daysSinceEpoch + keptDays
        guard through >= today.daysSinceEpoch else { return ([], nil) }
        return (dates.filter { $0.daysSinceEpoch <= through }, today.daysSinceEpoch...through)
    }

    /// Until this instant, every answer comes from the kept occurrences.
    public var validUntil: Date {
        guard keptTruncated, let last = kept.last else { return .distantFuture }
        return last.startInstant.addingTimeInterval(-Self.lookback)
    }

    /// True when `now`, seen from `zone`, is answered from what was kept.
    func isCovered(at now: Date, zone: Zone) -> Bool {
        now.addingTimeInterval(-2 * 86_400) >= coveredFrom && (!isFloating || zone == floatingZone)
    }

    // MARK: the three questions remaining time asks

    /// The first occurrence overlapping `[now - 2 days, ∞)` that `isOver` does not reject.
    public func next(at now: Date, zone: Zone, isOver: (Occurrence) -> Bool) -> Occurrence? {
        let windowStart = now.addingTimeInterval(-2 * 86_400)
        if isCovered(at: now, zone: zone) {
            if let found = kept.first(where: { Self.overlaps($0, from: windowStart) && !isOver($0) }) { return found }
            if !keptTruncated { return nil }
        }
        let (items, expander) = expansion(for: zone)
        let window = DateInterval(start: windowStart, end: now.addingTimeInterval(1_000 * 365.25 * 86_400))
        for limit in [min(64, maxOccurrences), maxOccurrences] {
            let result = expander.occurrences(of: items, in: window, limit: limit)
            if let first = result.occurrences.first(where: { !isOver($0) }) { return first }
            if !result.truncated { return nil }
        }
        return nil
    }

    /// The most recent occurrence that has started by `now`.
    public func previous(at now: Date, zone: Zone) -> Occurrence? {
        if now >= coveredFrom, !isFloating || zone == floatingZone {
            let started = kept.last { $0.startInstant <= now }
            let keptAreAllStarted = kept.last.map { $0.startInstant <= now } ?? false
            if !(keptTruncated && keptAreAllStarted) {
                return [started, earlier].compactMap { $0 }.max { $0.startInstant < $1.startInstant }
            }
        }
        let (items, expander) = expansion(for: zone)
        return Self.latest(startingBefore: now.addingTimeInterval(1), expander.prepare(items), expander, limit: maxOccurrences)
    }

    /// The first occurrence there is, for a series that has neither a next nor a previous one.
    public func first(zone: Zone) -> Occurrence? {
        if coveredFrom == .distantPast, !isFloating || zone == floatingZone { return kept.first }
        let (items, expander) = expansion(for: zone)
        return expander.occurrences(of: items, in: DateInterval(start: .distantPast, end: .distantFuture), limit: 1).occurrences.first
    }

    // MARK: what an agenda asks

    /// Every occurrence overlapping `window`, seen from `zone`, cancelled
    /// instances included when asked (an agenda strikes them through). A fresh
    /// expansion: agendas are read by the owner, not by every subscriber.
    public func occurrences(in window: DateInterval, zone: Zone, includingCancelled: Bool, limit: Int) -> [Occurrence] {
        let items = prepared?.items ?? Self.components(for: countdown)
        var calendar = VCalendar.empty()
        calendar.timeZones = countdown.timeZoneDefinitions.map(VTimeZone.init(component:))
        let expander = OccurrenceExpander(calendar: calendar, floatingZone: isFloating ? zone : floatingZone,
                                          cancelled: includingCancelled ? .include : .skip)
        return expander.occurrences(of: items, in: window, limit: min(limit, maxOccurrences)).occurrences
    }

    // MARK: what a calendar app's time-range search asks

    /// Whether an occurrence overlaps `window` as a fresh expansion would say
    /// (`OccurrenceExpander`'s overlap: it starts before the window ends and
    /// ends after it starts; one without length, within it). The kept
    /// occurrences settle it for every one-off and for a window from a few
    /// days ago on that ends before the last kept start (a phone's week
    /// around today); any other window expands the prepared series. CalDAV's
    /// `calendar-query` asks it of 10,000 series at once (issue #62).
    public func hasOccurrence(overlapping window: DateInterval) -> Bool {
        if window.start >= coveredFrom, !keptTruncated || kept.last.map({ window.end <= $0.startInstant }) == true {
            return kept.contains { Self.overlaps($0, window) }
        }
        let (items, expander) = expansion(for: floatingZone)
        return !expander.occurrences(of: items, in: window, limit: 1).occurrences.isEmpty
    }

    /// The expander's overlap of one occurrence and a window.
    static func overlaps(_ occurrence: Occurrence, _ window: DateInterval) -> Bool {
        let start = occurrence.startInstant
        let end = occurrence.endInstant ?? start
        if end > start { return start < window.end && end > window.start }
        return start >= window.start && start < window.end
    }

    // MARK: what the countdown calendar asks

    /// The distinct dates (in `zone`) of occurrences on or after `today`, through
    /// at least `through` and one beyond it when there is one, at most `limit` of them.
    public func dates(from today: CivilDate, through last: CivilDate, zone: Zone, limit: Int) -> [CivilDate] {
        let start = zone.instant(of: LocalDateTime(date: today))
        let date = { (occurrence: Occurrence) in occurrence.isAllDay ? occurrence.start.civilDate : zone.local(of: occurrence.startInstant).date }
        if start >= coveredFrom, !isFloating || zone == floatingZone,
           !keptTruncated || kept.last.map({ date($0) > last }) == true {
            return Array(Set(kept.map(date).filter { $0 >= today })).sorted().prefix(limit).map { $0 }
        }
        if zone == floatingZone, let cover = datesCover, cover.contains(today.daysSinceEpoch), cover.contains(last.daysSinceEpoch) {
            let kept = keptDates.filter { $0 >= today }
            // Complete through `last`; one more beyond it when the kept ones reach that far.
            if kept.last.map({ $0 > last }) == true || cover.upperBound > last.daysSinceEpoch {
                let beyond = kept.first { $0 > last } ?? next(at: zone.instant(of: LocalDateTime(date: last.adding(days: 1))), zone: zone,
                                                           isOver: { _ in false }).map(dateOf(zone))
                return Array((kept.filter { $0 <= last } + (beyond.map { [$0] } ?? [])).prefix(limit))
            }
        }
        let (items, expander) = expansion(for: zone)
        // Far enough to find the next occurrence after the window, however sparse the repeat.
        let window = DateInterval(start: start, end: start.addingTimeInterval(1_000 * 365.25 * 86_400))
        let found = expander.occurrences(of: items, in: window, limit: min(maxOccurrences, limit)).occurrences
        return Array(Set(found.map(date).filter { $0 >= today })).sorted()
    }

    private func dateOf(_ zone: Zone) -> (Occurrence) -> CivilDate {
        { occurrence in occurrence.isAllDay ? occurrence.start.civilDate : zone.local(of: occurrence.startInstant).date }
    }

    // MARK: preparing

    /// The countdown as the components the expander reads. A cancelled countdown
    /// still has a date to show, so it is expanded as if active.
    ///
    /// Only the properties that decide when instances happen are kept: a
    /// repeating series holds its components for as long as the feed is
    /// compiled, and titles, notes, categories and presentation would otherwise
    /// be held twice (the countdown has them) for each of 10,000 countdowns.
    public static func components(for countdown: Countdown) -> [Component] {
        var items = CountdownWriter.components(for: countdown, options: .init(includeAlarms: false))
        for index in items.indices {
            items[index].properties.removeAll { !recurrenceProperties.contains($0.name) }
            items[index].components = []
        }
        if countdown.status == .cancelled {
            items[0].properties.removeAll { $0.name == "STATUS" }
        }
        return items
    }

    /// What the expander reads of an event or task (`RecurringSeries`, `SeriesShape`,
    /// `EditPrecedence`, `RangeOverride`, `Occurrence`); the summary is
    /// dropped from every occurrence a series answers with anyway.
    static let recurrenceProperties: Set<String> = [
        "UID", "DTSTART", "DTEND", "DUE", "DURATION", "RRULE", "RDATE", "EXDATE", "EXRULE",
        "RECURRENCE-ID", "SEQUENCE", "LAST-MODIFIED", "DTSTAMP", "STATUS",
    ]

    public static func expander(for countdown: Countdown, floatingZone: Zone) -> OccurrenceExpander {
        var calendar = VCalendar.empty()
        calendar.timeZones = countdown.timeZoneDefinitions.map(VTimeZone.init(component:))
        return OccurrenceExpander(calendar: calendar, floatingZone: floatingZone)
    }

    private func expansion(for zone: Zone) -> ([Component], OccurrenceExpander) {
        if let prepared, !isFloating || zone == floatingZone { return prepared }
        return (prepared?.items ?? Self.components(for: countdown), Self.expander(for: countdown, floatingZone: zone))
    }

    /// The most recent occurrence starting before `instant`: windows that widen
    /// backwards, so a yearly repeat costs two small expansions, not a century.
    static func latest(startingBefore instant: Date, _ items: OccurrenceExpander.Prepared, _ expander: OccurrenceExpander, limit: Int) -> Occurrence? {
        for days in [8.0, 400, 4_000, 40_000, 4_000_000] {
            let window = DateInterval(start: instant.addingTimeInterval(-days * 86_400), end: instant)
            let found = expander.occurrences(of: items, in: window, limit: limit).occurrences
            if let last = found.last(where: { $0.startInstant < instant }) { return last }
        }
        return nil
    }

    static func overlaps(_ occurrence: Occurrence, from start: Date) -> Bool {
        let end = occurrence.endInstant ?? occurrence.startInstant
        return end > occurrence.startInstant ? end > start : occurrence.startInstant >= start
    }

    /// Kept occurrences share the countdown's UID string and drop the summary
    /// (the countdown has it), so 10,000 series stay small.
    private static func slim(_ countdown: Countdown) -> (Occurrence) -> Occurrence {
        { occurrence in
            var slim = occurrence
            slim.uid = countdown.uid
            slim.summary = nil
            return slim
        }
    }

    static func usesFloatingTime(_ countdown: Countdown) -> Bool {
        func floating(_ value: DateTimeValue?) -> Bool { if case .floating = value { true } else { false } }
        return floating(countdown.target) || floating(countdown.end)
            || countdown.recurrenceDates.contains { floating($0.start) }
            || !countdown.overrides.isEmpty
    }
}

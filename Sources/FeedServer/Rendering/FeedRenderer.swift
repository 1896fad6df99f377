import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Logging
import Synchronization

/// Compiled feed → Countdowns → bytes, for each clock-dependent output, through
/// the render cache. The countdown calendar depends on the day in the feed's
/// zone; JSON, pages and cards on the minute. Each is derived from the compiled
/// series by arithmetic: no SQL, no re-expansion of a prepared series.
struct FeedRenderer: Sendable {
    let cache: RenderCache
    let settings: RenderSettings
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Revisions whose countdown calendar was reduced and already logged.
    private let reducedLogged = ReducedLog()

    final class ReducedLog: Sendable {
        let revisions = Mutex<[String: Int64]>([:])
    }

    init(cache: RenderCache, settings: RenderSettings, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.cache = cache
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    var baseURL: String { settings.baseURL }

    /// "Now" rounded down to the minute: JSON, pages and cards change at most once a minute.
    private var minute: (key: Int, start: Date) {
        let key = Int((clock().timeIntervalSince1970 / 60).rounded(.down))
        return (key, Date(timeIntervalSince1970: Double(key * 60)))
    }

    private func calculator(at now: Date, _ zone: Zone, _ compiled: CompiledFeed, _ language: Language) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: now, zone: zone, maxOccurrences: settings.maxOccurrences, workingDays: compiled.workingDays, language: language)
    }

    /// The countdown calendar, rendered again when the day changes in the feed's zone.
    func countdownCalendar(_ compiled: CompiledFeed, language: Language? = nil) async throws -> Representation {
        let zone = compiled.feed.zone
        let today = zone.local(of: clock()).date
        let language = language ?? compiled.feed.language ?? .english
        let key = RenderKey.countdownCalendar(compiled.identity, day: today, language: language)
        return try await cache.value(for: key) { [self] in
            let result = CountdownCalendar(feed: compiled.feed, today: today, zone: zone, workingDays: compiled.workingDays, language: language)
                .calendar(for: compiled.series)
            if result.isReduced { noteReduced(compiled, result) }
            let dayStart = zone.instant(of: LocalDateTime(date: today))
            return Representation(bytes: CalendarWriter().bytes(result.calendar), contentType: Representation.calendarType,
                                  lastModified: max(compiled.stored.updatedAt, dayStart), cacheControl: settings.cacheControl(compiled.feed, maxAge: 900),
                                  contentDisposition: "inline; filename=\"\(compiled.slug)-countdown.ics\"", gzip: settings.gzip)
        }
    }

    /// The exported calendar for clients that drop events with an RSCALE rule
    /// (khal, Python's dateutil; Google and Outlook ignore RSCALE): those
    /// repeats as ten years of RDATEs only. Rendered on first request, then cached.
    func exportedDates(_ compiled: CompiledFeed) async throws -> Representation {
        let spelling = OtherCalendarDates(form: .dates, window: compiled.otherCalendarDates.window)
        return try await cache.value(for: .exportedDates(compiled.identity, window: spelling.window)) { [self] in
            CompiledFeed.export(compiled.stored, countdowns: compiled.countdowns, settings: settings, otherCalendarDates: spelling)
        }
    }

    private func noteReduced(_ compiled: CompiledFeed, _ result: CountdownCalendar.Result) {
        let first = reducedLogged.revisions.withLock { logged in
            defer { logged[compiled.slug] = compiled.revision }
            return logged[compiled.slug] != compiled.revision
        }
        guard first else { return }
        let detail = CountdownCalendar.Detail.allCases.map { "\($0): \(result.detail[$0] ?? 0)" }.joined(separator: ", ")
        logger.notice("countdown calendar reduced to stay under maxEvents", metadata: [
            "feed": "\(compiled.slug)", "maxEvents": "\(compiled.feed.countdownMaxEvents)", "countdowns": "\(detail)",
        ])
    }

    /// `/feeds/{slug}.json`. A category the feed does not have is answered with
    /// the empty list and not cached, so random categories cannot fill the cache.
    func json(_ compiled: CompiledFeed, query: FeedQuery) async throws -> Representation {
        let (minute, minuteStart) = self.minute
        let render: @Sendable () throws -> Representation = { [self] in
            var series = compiled.series
            if let category = query.category {
                series = compiled.categories.contains(category) ? series.filter { $0.countdown.categories.contains { $0.lowercased() == category } } : []
            }
            let calculator = calculator(at: minuteStart, query.zone, compiled, query.language)
            var rows = FeedSnapshot.rows(series, calculator: calculator, unit: query.unit, sort: query.sort)
            let tasks = TaskCounts(rows: rows, now: minuteStart)
            if rows.count > query.limit { rows.removeLast(rows.count - query.limit) }
            let snapshot = FeedSnapshot(feed: compiled.feed, rows: rows, calculator: calculator, tasks: tasks, imageURL: { settings.imageURL($0) })
            return Representation(bytes: FeedSnapshotJSON.bytes(snapshot), contentType: "application/json; charset=utf-8",
                                  lastModified: max(compiled.stored.updatedAt, minuteStart), cacheControl: settings.cacheControl(compiled.feed, maxAge: 60),
                                  gzip: settings.gzip)
        }
        if let category = query.category, !compiled.categories.contains(category) { return try render() }
        return try await cache.value(for: .json(compiled.identity, minute: minute, query: query), render: render)
    }

    func page(_ compiled: CompiledFeed, zone: Zone, path: String, language: Language = .english) async throws -> Representation {
        let (minute, minuteStart) = self.minute
        let key = RenderKey.page(compiled.identity, minute: minute, zone: zone, path: path, language: language)
        return try await cache.value(for: key) { [self] in
            let rows = FeedSnapshot.rows(compiled.series, calculator: calculator(at: minuteStart, zone, compiled, language), sort: compiled.feed.sort)
            let html = FeedPage.render(feed: compiled.feed, rows: rows, links: FeedPage.links(baseURL: baseURL, path: path),
                                       cardPath: { "\(path)/\($0.id ?? 0).svg" }, imageURL: { settings.imageURL($0) }, pages: settings.pages,
                                       language: language)
            return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                                  lastModified: max(compiled.stored.updatedAt, minuteStart), cacheControl: settings.cacheControl(compiled.feed, maxAge: 60),
                                  extraHeaders: PageHeaders.page)
        }
    }

    /// One countdown's SVG card, or nil when the feed has no such countdown.
    func card(_ compiled: CompiledFeed, id: Int64, zone: Zone, language: Language = .english) async throws -> Representation? {
        guard let series = compiled.series(id: id) else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.card(compiled.identity, minute: minute, id: id, zone: zone, language: language)
        return try await cache.value(for: key) { [self] in
            let remaining = calculator(at: minuteStart, zone, compiled, language).remaining(for: series)
            let svg = SVGCard.render(CardFace(countdown: series.countdown, remaining: remaining, language: language))
            return Representation(bytes: Array(svg.utf8), contentType: "image/svg+xml; charset=utf-8",
                                  lastModified: max(compiled.stored.updatedAt, minuteStart), cacheControl: settings.cacheControl(compiled.feed, maxAge: 300),
                                  extraHeaders: PageHeaders.card)
        }
    }
}

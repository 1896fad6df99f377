import Countdowns
import CountdownStore
@preconcurrency import Crypto
import Foundation
import ICalendar
import Logging
import Synchronization

/// Compiled feed → Countdowns → bytes, for each clock-dependent output, through
/// the render cache. The countdown calendar depends on the day in the feed's
/// zone; JSON, pages and cards on the minute. Each is derived from the compiled
/// series by arithmetic: no SQL, no re-expansion of a prepared series.
package struct FeedRenderer: Sendable {
    package let cache: RenderCache
    /// List orders kept for the pages after the first.
    package let orders = ListOrders()
    package let settings: RenderSettings
    /// Signs the cursors this renderer writes and checks those it is given.
    package let cursorKey: SymmetricKey
    package let clock: @Sendable () -> Date
    package let logger: Logger
    /// Where a large feed not compiled is read by place (`firstJSON`, `firstPage`, `batchedCountdownCalendar`).
    let store: any CountdownStore
    /// Revisions whose countdown calendar was reduced and already logged.
    private let reducedLogged = ReducedLog()

    package final class ReducedLog: Sendable {
        package let revisions = Mutex<[String: Int64]>([:])
    }

    package init(cache: RenderCache, settings: RenderSettings, cursorKey: SymmetricKey, store: any CountdownStore, clock: @escaping @Sendable () -> Date,
                 logger: Logger) {
        self.store = store
        self.cache = cache
        self.settings = settings
        self.cursorKey = cursorKey
        self.clock = clock
        self.logger = logger
    }

    package var baseURL: String { settings.baseURL }

    /// "Now" rounded down to the minute: JSON, pages and cards change at most once a minute.
    var minute: (key: Int, start: Date) {
        let key = Int((clock().timeIntervalSince1970 / 60).rounded(.down))
        return (key, Date(timeIntervalSince1970: Double(key * 60)))
    }

    /// The minute a page is computed for: now on a first page, the cursor's on
    /// the pages after it, so that one walk reads one ordering. A cursor from
    /// the future, or older than `FeedCursor.maxAge` minutes, is refused. Only
    /// the server's own minute takes part in arithmetic, never the cursor's.
    private func minute(of cursor: FeedCursor?) throws -> (key: Int, start: Date) {
        let now = minute
        guard let cursor else { return now }
        guard cursor.minute <= now.key else { throw UnusableCursor.notOurs }
        guard cursor.minute >= now.key - FeedCursor.maxAge else { throw UnusableCursor.tooOld }
        return (cursor.minute, Date(timeIntervalSince1970: Double(cursor.minute * 60)))
    }

    private func calculator(at now: Date, _ zone: Zone, _ compiled: CompiledFeed, _ language: Language) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: now, zone: zone, maxOccurrences: settings.maxOccurrences, workingDays: compiled.workingDays, language: language)
    }

    /// Every countdown of the feed as `/feeds/{slug}.json` shows it at `now`,
    /// in the feed's zone and language: what notices and MQTT sensors say.
    package func snapshots(_ compiled: CompiledFeed, at now: Date) -> [CountdownSnapshot] {
        let calculator = calculator(at: now, compiled.feed.zone, compiled, compiled.feed.language ?? .english)
        return compiled.series.map { CountdownSnapshot(countdown: $0.countdown, remaining: calculator.remaining(for: $0), imageURL: { settings.imageURL($0) }) }
    }

    /// The countdown calendar, rendered again when the day changes in the feed's
    /// zone (or the link's `tz`, at its `rollover`). A link naming only
    /// categories the feed lacks is answered with no countdowns and not kept.
    package func countdownCalendar(_ compiled: CompiledFeed, language: Language? = nil, tuning asked: LinkTuning = LinkTuning()) async throws -> Representation {
        let tuning = asked.isEmpty ? asked : asked.known(in: compiled.categories)
        let zone = tuning.zone ?? compiled.feed.zone
        let today = tuning.today(at: clock(), fallback: zone)
        let language = language ?? compiled.feed.language ?? .english
        let render: @Sendable () -> Representation = { [self] in
            let series = tuning.isEmpty ? compiled.series
                : tuning.matchesNothing ? [] : Self.shown(compiled.series, tuning: tuning, today: today, zone: zone, ahead: true)
            let result = CountdownCalendar(feed: compiled.feed, today: today, zone: zone, workingDays: compiled.workingDays, language: language)
                .calendar(for: series)
            return countdownCalendar(result, of: compiled.stored, shown: compiled.feed, today: today, zone: zone)
        }
        if tuning.matchesNothing { return render() }
        return try await cache.value(for: .countdownCalendar(compiled.identity, day: today, language: language, tuning: tuning), render: render)
    }

    /// The exported calendar for clients that read RSCALE (Apple's): those
    /// repeats as their rule plus ten years of RDATEs. Not the default, since
    /// khal and recurring-ical-events (Python's dateutil) refuse the rule, the
    /// latter the whole calendar. Rendered on first request, then cached.
    package func exportedWithRule(_ compiled: CompiledFeed) async throws -> Representation {
        let spelling = OtherCalendarDates(form: .ruleAndDates, window: compiled.otherCalendarDates.window)
        return try await cache.value(for: .exportedWithRule(compiled.identity, window: spelling.window)) { [self] in
            CompiledFeed.export(compiled.stored, countdowns: compiled.countdowns, settings: settings, otherCalendarDates: spelling)
        }
    }

    /// The countdown calendar's bytes and headers, `result` made for `stored`
    /// (its feed as the link shows it: `shown`) on `today` in `zone`; a
    /// reduced one is logged once per revision.
    func countdownCalendar(_ result: CountdownCalendar.Result, of stored: StoredFeed, shown: Feed, today: CivilDate, zone: Zone) -> Representation {
        if result.isReduced { noteReduced(stored, result) }
        let dayStart = zone.instant(of: LocalDateTime(date: today))
        return Representation(bytes: CalendarWriter().bytes(result.calendar), contentType: Representation.calendarType,
                              lastModified: max(stored.updatedAt, dayStart), cacheControl: settings.cacheControl(shown, maxAge: 900),
                              contentDisposition: "inline; filename=\"\(stored.feed.slug)-countdown.ics\"", gzip: settings.gzip,
                              feed: stored.feed.slug)
    }

    private func noteReduced(_ stored: StoredFeed, _ result: CountdownCalendar.Result) {
        let first = reducedLogged.revisions.withLock { logged in
            defer { logged[stored.feed.slug] = stored.revision }
            return logged[stored.feed.slug] != stored.revision
        }
        guard first else { return }
        let detail = CountdownCalendar.Detail.allCases.map { "\($0): \(result.detail[$0] ?? 0)" }.joined(separator: ", ")
        logger.notice("countdown calendar reduced to stay under maxEvents", metadata: [
            "feed": "\(stored.feed.slug)", "maxEvents": "\(stored.feed.countdownMaxEvents)", "countdowns": "\(detail)",
        ])
    }

    /// `/feeds/{slug}.json`, one page of it: `query.limit` countdowns from the
    /// cursor's offset, with the cursor of the next page. A category the feed
    /// does not have is answered with the empty list and not cached, so random
    /// categories cannot fill the cache.
    package func json(_ compiled: CompiledFeed, query: FeedQuery) async throws -> Representation {
        let (minute, minuteStart) = try self.minute(of: query.cursor)
        let known = query.category.map { compiled.categories.contains($0) } ?? true
        let render: @Sendable () throws -> Representation = { [self] in
            var series = compiled.series
            if let category = query.category {
                series = known ? series.filter { $0.countdown.categories.contains { $0.lowercased() == category } } : []
            }
            let calculator = calculator(at: minuteStart, query.zone, compiled, query.language)
            let key = ListOrders.Key(feed: compiled.identity, minute: minute, zone: query.zone, unit: query.unit, category: query.category,
                                     sort: query.sort, language: query.language)
            let make = { ListOrders.make(series, calculator: calculator, unit: query.unit, sort: query.sort) }
            // An unknown category's (empty) list is not kept: a flood of random categories keeps nothing.
            let order = known ? orders.order(key, make: make) : make()
            let (rows, next) = page(of: order, series, from: query.cursor?.offset ?? 0, limit: query.limit, calculator: calculator, unit: query.unit) {
                FeedCursor(revision: compiled.revision, holidaysRevision: compiled.holidaysRevision, minute: minute, offset: $0,
                           fingerprint: query.fingerprint)
            }
            return jsonPage(compiled.feed, updatedAt: compiled.stored.updatedAt, rows: rows, calculator: calculator, tasks: order.tasks,
                            total: order.indices.count, next: next)
        }
        if !known { return try render() }
        return try await cache.value(for: .json(compiled.identity, minute: minute, query: query), render: render)
    }

    /// One page of `/feeds/{slug}.json` as bytes with its headers: one home
    /// for the compiled list's pages and the first page read by place, so both give the same bytes.
    func jsonPage(_ feed: Feed, updatedAt: Date, rows: [(Countdown, RemainingTime)], calculator: RemainingTimeCalculator, tasks: TaskCounts, total: Int,
                  next: FeedCursor?) -> Representation {
        let snapshot = FeedSnapshot(feed: feed, rows: rows, calculator: calculator, tasks: tasks, total: total, next: next?.text(key: cursorKey),
                                    imageURL: { settings.imageURL($0) })
        return Representation(bytes: FeedSnapshotJSON.bytes(snapshot), contentType: "application/json; charset=utf-8",
                              lastModified: max(updatedAt, calculator.now), cacheControl: settings.cacheControl(feed, maxAge: 60), gzip: settings.gzip,
                              feed: feed.slug)
    }

    /// Countdowns the feed's page shows at once; a link shows the next ones.
    package static let pageSize = 100

    /// The feed's page: `pageSize` cards from the cursor's offset, and a link to the next ones.
    package func page(_ compiled: CompiledFeed, zone: Zone, path: String, language: Language = .english, cursor: FeedCursor? = nil) async throws -> Representation {
        let (minute, minuteStart) = try self.minute(of: cursor)
        let offset = cursor?.offset ?? 0
        let key = RenderKey.page(compiled.identity, minute: minute, zone: zone, path: path, language: language, offset: offset)
        return try await cache.value(for: key) { [self] in
            let calculator = calculator(at: minuteStart, zone, compiled, language)
            let sort = compiled.feed.sort
            let orderKey = ListOrders.Key(feed: compiled.identity, minute: minute, zone: zone, unit: nil, category: nil, sort: sort, language: language)
            let order = orders.order(orderKey) { ListOrders.make(compiled.series, calculator: calculator, unit: nil, sort: sort) }
            let (rows, next) = page(of: order, compiled.series, from: offset, limit: Self.pageSize, calculator: calculator, unit: nil) {
                FeedCursor(revision: compiled.revision, holidaysRevision: compiled.holidaysRevision, minute: minute, offset: $0,
                           fingerprint: FeedQuery.fingerprint(zone: zone, sort: sort, language: language))
            }
            return htmlPage(compiled.feed, updatedAt: compiled.stored.updatedAt, rows: rows, zone: zone, path: path, language: language,
                            minuteStart: minuteStart, offset: offset, total: order.indices.count, next: next)
        }
    }

    /// The HTML of a page of `rows` from `offset` of a list of `total`, with a link to `next`.
    func htmlPage(_ feed: Feed, updatedAt: Date, rows: [(Countdown, RemainingTime)], zone: Zone, path: String, language: Language, minuteStart: Date,
                  offset: Int, total: Int, next: FeedCursor?) -> Representation {
        let more = next.map { next in
            FeedPage.More(url: "\(path)?cursor=\(next.text(key: cursorKey))&tz=\(zone.identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&lang=\(language.code)",
                          label: "\(offset + 1)–\(next.offset) / \(total) →")
        }
        let html = FeedPage.render(feed: feed, rows: rows, links: FeedPage.links(baseURL: baseURL, path: path),
                                   cardPath: { "\(path)/\($0.id ?? 0).svg" }, imageURL: { settings.imageURL($0) }, pages: settings.pages,
                                   language: language, more: more)
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                              lastModified: max(updatedAt, minuteStart), cacheControl: settings.cacheControl(feed, maxAge: 60),
                              extraHeaders: PageHeaders.page, feed: feed.slug)
    }

    /// Rows `offset ..< offset + limit` of `order`, their remaining times
    /// computed again (the same minute gives the same values), and the cursor
    /// of the rows after them, if any.
    private func page(of order: ListOrders.Order, _ series: [CountdownSeries], from offset: Int, limit: Int, calculator: RemainingTimeCalculator,
                      unit: DisplayUnit?, cursor: (Int) -> FeedCursor) -> (rows: [(Countdown, RemainingTime)], next: FeedCursor?) {
        // A cursor's offset is at most the feed's size and a limit at most
        // `FeedQuery.maxLimit`, but the sum is taken without trapping anyway.
        let (sum, overflow) = offset.addingReportingOverflow(limit)
        let end = min(overflow ? Int.max : sum, order.indices.count)
        guard offset >= 0, offset < end else { return ([], nil) }
        let rows = order.indices[offset..<end].map { index in
            let one = series[Int(index)]
            return (one.countdown, calculator.remaining(for: one, unit: unit))
        }
        return (rows, end < order.indices.count ? cursor(end) : nil)
    }

    /// One countdown's SVG card, or nil when the feed has no such countdown.
    package func card(_ compiled: CompiledFeed, id: Int64, zone: Zone, language: Language = .english) async throws -> Representation? {
        guard let series = compiled.series(id: id) else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.card(compiled.identity, minute: minute, id: id, zone: zone, language: language)
        return try await cache.value(for: key) { [self] in
            let remaining = calculator(at: minuteStart, zone, compiled, language).remaining(for: series)
            let svg = SVGCard.render(CardFace(countdown: series.countdown, remaining: remaining, language: language))
            return Representation(bytes: Array(svg.utf8), contentType: "image/svg+xml; charset=utf-8",
                                  lastModified: max(compiled.stored.updatedAt, minuteStart), cacheControl: settings.cacheControl(compiled.feed, maxAge: RenderSettings.feedMaxAge),
                                  extraHeaders: PageHeaders.card, feed: compiled.slug)
        }
    }
}

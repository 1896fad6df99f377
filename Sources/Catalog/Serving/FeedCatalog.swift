import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Logging
import NIOCore
import NIOPosix
import Services
import Synchronization

/// What the store holds, and the feeds compiled from it, in memory.
///
/// Two parts, because a deployment grows two ways (issue #25):
/// - **the catalog**: every feed's row (settings, revision, how many
///   countdowns) and the live tokens. Small, read at start and after every
///   change, so start time does not grow with the countdowns stored;
/// - **the compiled feeds**: a feed is compiled on its first read after start
///   or a change, and kept in a least-recently-used set within its own byte
///   budget (`--compiled-mb`). A feed that falls out is compiled again when
///   next read; concurrent first reads of a feed compile it once.
///
/// The compiled feeds have a budget of their own rather than a share of the
/// render cache's: a compilation costs a store read and libical to make again,
/// a render only arithmetic on it, so a burst of renders (every language of a
/// page) must not push out the compilations they are made from.
///
/// Requests read one lock and one dictionary on the hot path. Writes in this
/// process call `refresh()` and await it, so the next request sees them;
/// writes by another process (`tminus import` beside a running server,
/// another replica on PostgreSQL) are found by `CatalogPollService` (SQLite,
/// once a second) or `FeedChangeListener` (PostgreSQL's NOTIFY). A change
/// compiles nothing: the stale compilation stays only as the base the next
/// read reuses unchanged countdowns from.
package final class FeedCatalog: Sendable {
    package struct Published: Sendable {
        /// Every feed's row, by slug.
        package var feeds: [String: StoredFeed] = [:]
        /// What a read checks a compilation against, small enough to copy on
        /// the hot path (a `StoredFeed` copy retains every string of its settings).
        package var heads: [String: Head] = [:]
        /// The redacted views each feed may be read as: `.classified` for a
        /// public feed, and `.titles` or `.busy` where a token has that visibility.
        package var needed: [String: Set<Redaction>] = [:]
        /// Hash of a token's secret → the token and the feed it opens.
        package var tokens: [String: ActiveToken] = [:]
        /// `/` in each language asked for (by code), rendered with the feeds it
        /// lists: empty after a change until first asked for (`index(in:)`), so
        /// that a change costs no render of every feed.
        package var index: [String: Representation] = [:]
        /// Moves with every published change of the feeds, so that an index
        /// rendered from older feeds is not kept.
        package var generation = 0
        /// False until the store's catalog was first read (`/healthz` says "starting").
        package var isRead = false
        /// The store's change stamp this was read at (nil: the store keeps none).
        package var stamp: Int64?
    }

    package struct Head: Sendable {
        package var revision: Int64
        package var holidays: String?
        /// Where the feed's year turns: which kept export a read takes, known without its `StoredFeed`.
        package var zone: Zone
        /// Whether anyone may read it (`Authorization.view`), known without its `StoredFeed`.
        package var isPublic: Bool

        package init(_ stored: StoredFeed) {
            revision = stored.revision
            isPublic = stored.feed.isPublic
            holidays = stored.feed.holidays
            zone = stored.feed.zone
        }
    }

    /// One compilation: a feed as one kind of link sees it.
    package struct CompiledKey: Hashable, Sendable {
        package var slug: String
        package var redaction: Redaction

        var view: ExportKeeper.View { ExportKeeper.View(slug: slug, redaction: redaction) }
    }

    /// What a read needs a compilation to match: the feed's revision, and that
    /// of the holidays feed its working days count with.
    private struct Target: Sendable {
        var revision: Int64
        var holidaysRevision: Int64?
        var zone: Zone

        func isServed(by compiled: CompiledFeed, at now: Date) -> Bool {
            compiled.revision == revision && compiled.holidaysRevision == holidaysRevision && compiled.validUntil > now
        }
    }

    private struct Compiled {
        var feeds: CompiledSet<CompiledKey, CompiledFeed>
        /// Compiles running, with the revision each is for: a read joins one for
        /// the revision it wants, never one of an older revision.
        var inFlight: [CompiledKey: (revision: Int64, task: Task<CompiledFeed?, Never>)] = [:]
        var hits = 0
        var misses = 0
    }

    /// The compiled feeds' figures, for `/api/health` and `/metrics`.
    package struct Statistics: Sendable, Codable {
        /// Feeds compiled in full.
        package var feeds: Int
        /// Redacted views of them (a public link's, a token's) that differ from the full one.
        package var views: Int
        package var bytes: Int
        package var budgetBytes: Int
        package var hits: Int
        package var misses: Int
        package var evictions: Int
        package var countdowns: Int
    }

    package let service: CountdownService
    package var store: any CountdownStore { service.store }
    package let settings: RenderSettings
    package let clock: @Sendable () -> Date
    package let logger: Logger
    /// Where exports read from the store are kept (the render cache, within `--cache-mb`).
    package let cache: RenderCache
    private let published = Mutex(Published())
    private let compiled: Mutex<Compiled>
    private let tokenUses = Mutex<[Int64: Date]>([:])
    /// Exports being written in batches (`batchedExport`), one per view: the requests that come meanwhile await it.
    let batchedExports = Mutex<[CompiledKey: (revision: Int64, task: Task<Representation?, Never>)]>([:])
    private let compiles = Atomic<Int>(0)
    /// How many exports were written in batches since start (`batchedExport`; tests read it).
    let batchedExportWrites = Atomic<Int>(0)
    private let indexRenders = Atomic<Int>(0)
    private let refreshes = SerialJobs()
    /// Compiling (libical and rendering the export, CPU-bound) runs on threads
    /// of its own: never on Swift's cooperative pool, and one feed's long
    /// compile (100,000 countdowns) leaves a thread for the others.
    private let compilePool: NIOThreadPool
    private let yearVariant = Mutex<(year: Int, variant: String)>((0, ""))
    /// An export longer than this (an eighth of `--compiled-mb`) is not held:
    /// it is kept in the store and sent from there a chunk at a time.
    package let largeExportBytes: Int
    /// Called with each feed whose revision moved (a real change, not a start or a new day).
    private let changed: @Sendable (StoredFeed) -> Void
    /// Writes compiled exports to the store in the background (a `Service` the server runs).
    package let exports: ExportKeeper
    /// The size from which a feed not compiled answers its first page by place (`ServerConfiguration.placedReadFrom`).
    package let placedReadFrom: Int
    /// Kept exports read from the store, as files a miss reads instead (`--export-files-mb`); nil when off.
    package let exportFiles: KeptExportFiles?

    package init(service: CountdownService, settings: RenderSettings, clock: @escaping @Sendable () -> Date, logger: Logger, cache: RenderCache,
         budgetBytes: Int = 256 << 20, placedReadFrom: Int = 1_000, exportFiles: KeptExportFiles? = nil,
         changed: @escaping @Sendable (StoredFeed) -> Void = { _ in }) {
        self.changed = changed
        self.exportFiles = exportFiles
        self.placedReadFrom = placedReadFrom
        exports = ExportKeeper(store: service.store, logger: logger)
        self.cache = cache
        self.service = service
        self.settings = settings
        self.clock = clock
        self.logger = logger
        compiled = Mutex(Compiled(feeds: CompiledSet(budgetBytes: budgetBytes)))
        largeExportBytes = max(1, budgetBytes / 8)
        compilePool = NIOThreadPool(numberOfThreads: 2)
        compilePool.start()
    }

    deinit {
        compilePool.shutdownGracefully { _ in }
    }

    // MARK: the catalog (memory only)

    /// Every feed's row, ordered by slug.
    package var storedFeeds: [StoredFeed] { published.withLock { $0.feeds.values.sorted { $0.feed.slug < $1.feed.slug } } }

    package var feedCount: Int { published.withLock { $0.feeds.count } }

    package func stored(slug: String) -> StoredFeed? { published.withLock { $0.feeds[slug] } }

    package var isRead: Bool { published.withLock(\.isRead) }

    /// The index page of the public feeds in `language`, as of the last
    /// refresh: rendered on the first request in that language after a change,
    /// then kept. Rendering it on every change instead made creating the 600th
    /// feed cost 40 ms instead of 12 (issue #27).
    package func index(in language: Language) -> Representation {
        let (kept, feeds, generation) = published.withLock { ($0.index[language.code], $0.feeds, $0.generation) }
        if let kept { return kept }
        let rendered = IndexPage.representation(of: feeds.values.sorted { $0.feed.slug < $1.feed.slug }, settings: settings, language: language)
        indexRenders.add(1, ordering: .relaxed)
        published.withLock { if $0.generation == generation { $0.index[language.code] = rendered } }
        return rendered
    }

    /// The live token behind `secret`, or nil. The use is noted in memory and saved later.
    package func token(secret: String) -> ActiveToken? {
        guard secret.count >= 16, secret.count <= 64 else { return nil }
        let hash = Secret.hash(secret)
        // Looked up by the SHA-256 of the secret: timing says nothing about the secret itself.
        guard let token = published.withLock({ $0.tokens[hash] }) else { return nil }
        let now = clock()
        tokenUses.withLock { $0[token.id] = now }
        return token
    }

    /// Who a feed link acts as: the holder of its live token, or anyone (no
    /// token); nil for a secret that opens nothing. What each may see is
    /// `Authorization`'s to say (`view(slug:for:)`), not the route's.
    package func principal(link secret: String?) -> Principal? {
        guard let secret else { return .anonymous }
        return token(secret: secret).map { .feedToken(feed: $0.slug, visibility: $0.visibility) }
    }

    /// The view of `slug` that `principal` reads (`Authorization.view`), or
    /// nil when there is no such feed or it may read none.
    package func view(slug: String, for principal: Principal) -> Redaction? {
        guard let isPublic = published.withLock({ $0.heads[slug]?.isPublic }) else { return nil }
        return Authorization.view(principal, ofFeed: slug, isPublic: isPublic)
    }

    /// How many feeds were compiled since start (tests read it).
    package var compileCount: Int { compiles.load(ordering: .relaxed) }
    /// How many exports were written in batches since start, not compiled (tests read it).
    package var batchedExportCount: Int { batchedExportWrites.load(ordering: .relaxed) }
    /// How many times the index page was rendered since start (tests read it).
    package var indexRenderCount: Int { indexRenders.load(ordering: .relaxed) }

    package var statistics: Statistics {
        compiled.withLock { state in
            let full = state.feeds.keyed.filter { $0.key.redaction == .none }
            let views = state.feeds.keyed.filter { $0.key.redaction != .none && $0.value.redaction != .none }
            return Statistics(feeds: full.count, views: views.count, bytes: state.feeds.bytes, budgetBytes: state.feeds.budgetBytes,
                              hits: state.hits, misses: state.misses, evictions: state.feeds.evictions,
                              countdowns: full.reduce(0) { $0 + $1.value.series.count })
        }
    }

    /// The compilations in memory now, without compiling any (health's output figures).
    package var compiledNow: [CompiledFeed] {
        compiled.withLock { $0.feeds.keyed.filter { $0.key.redaction == .none }.map(\.value) }.sorted { $0.slug < $1.slug }
    }

    // MARK: compiled feeds (compiled on first read)

    /// The feed in full (what a `full` token link, the web app and the admin
    /// API read), compiled if it is not in memory; nil when there is no such feed.
    package func feed(slug: String) async -> CompiledFeed? { await feed(slug: slug, as: .none) }

    /// The feed as a link that `redaction` applies to may see it, or nil. Never
    /// falls back to the full feed: a view exists only where a public feed or a
    /// live token needs it.
    package func feed(slug: String, as redaction: Redaction) async -> CompiledFeed? {
        let now = clock()
        guard let target = target(slug: slug, as: redaction) else { return nil }
        switch lookup(CompiledKey(slug: slug, redaction: redaction), target, now: now, compiling: true) {
        case .kept(let compiled): return compiled
        case .compiling(let task): return await task.value
        case .absent: return nil
        }
    }

    /// The feed in full as the store has it this instant, even when another
    /// process changed it since the last poll (a download the owner asked for).
    package func current(slug: String) async -> CompiledFeed? {
        await refresh()
        return await feed(slug: slug)
    }

    /// Starts compiling `slug` as `redaction` unless it is in memory or being
    /// compiled, and returns at once, without waiting for it. True while a compile of it runs.
    @discardableResult
    package func startCompiling(slug: String, as redaction: Redaction = .none) -> Bool {
        guard let target = target(slug: slug, as: redaction) else { return false }
        if case .compiling = lookup(CompiledKey(slug: slug, redaction: redaction), target, now: clock(), compiling: true) { return true }
        return false
    }

    /// Awaited at the start of every compile, with the feed's slug: a test
    /// holds one feed's compile there to see what else is served meanwhile.
    private let compileGate = Mutex<(@Sendable (String) async -> Void)?>(nil)

    package func gateCompiles(_ gate: (@Sendable (String) async -> Void)?) {
        compileGate.withLock { $0 = gate }
    }

    /// True while a compile of `slug` as `redaction` runs.
    package func isCompiling(slug: String, as redaction: Redaction = .none) -> Bool {
        compiled.withLock { $0.inFlight[CompiledKey(slug: slug, redaction: redaction)] != nil }
    }

    /// What a read of `slug` as `redaction` needs a compilation to match, or
    /// nil when there is no such feed, or no such view of it.
    private func target(slug: String, as redaction: Redaction) -> Target? {
        published.withLock { published in
            guard let head = published.heads[slug] else { return nil }
            guard redaction == .none || published.needed[slug]?.contains(redaction) == true else { return nil }
            return Target(revision: head.revision, holidaysRevision: head.holidays.flatMap { published.heads[$0]?.revision }, zone: head.zone)
        }
    }

    private enum Lookup {
        case kept(CompiledFeed)
        case compiling(Task<CompiledFeed?, Never>)
        case absent
    }

    /// The compilation `key` in memory when it serves `target`, else the
    /// compile in flight for that revision, else (when `compiling`) a compile
    /// started now: one lock, so concurrent first reads start one compile.
    private func lookup(_ key: CompiledKey, _ target: Target, now: Date, compiling: Bool) -> Lookup {
        compiled.withLock { state in
            if let hit = state.feeds.use(key), target.isServed(by: hit, at: now) {
                state.hits += 1
                return .kept(hit)
            }
            if let running = state.inFlight[key], running.revision == target.revision { return .compiling(running.task) }
            guard compiling else { return .absent }
            state.misses += 1
            let task = Task { await self.build(key, target, now: now) }
            state.inFlight[key] = (target.revision, task)
            return .compiling(task)
        }
    }

    /// `feed(slug:as:)` for a request: nil when there is no such feed (a 404),
    /// and `StoreError.unavailable` (a 503 with Retry-After) when the feed
    /// exists but could not be compiled now, the store being away.
    package func readable(slug: String, as redaction: Redaction = .none) async throws -> CompiledFeed? {
        if let compiled = await feed(slug: slug, as: redaction) { return compiled }
        guard target(slug: slug, as: redaction) != nil else { return nil }
        throw StoreError.unavailable("feed '\(slug)' cannot be compiled now: the store did not answer")
    }

    /// The exported calendar (`/feeds/{slug}.ics`) as `redaction` sees it, or
    /// nil when there is no such feed or view: from the compilation in memory
    /// if there is one; else from the bytes the store kept for this revision
    /// (`KeptExport`: one read, then held in the render cache, and written as
    /// a file that the misses after read instead: `KeptExportFiles`); else compiled,
    /// which keeps the bytes for the next miss. So a server with more feeds than
    /// `--compiled-mb` holds answers a calendar client without compiling.
    package func exported(slug: String, as redaction: Redaction) async throws -> Representation? {
        let now = clock()
        guard let target = target(slug: slug, as: redaction) else { return nil }
        let key = CompiledKey(slug: slug, redaction: redaction)
        switch lookup(key, target, now: now, compiling: false) {
        case .kept(let compiled): return compiled.exported
        case .compiling(let task): if let compiled = await task.value { return compiled.exported }
        case .absent: break
        }
        // The kept export held in the render cache: what the target says is enough to find it (issue #41: the cached path copies no `StoredFeed`).
        let year = OtherCalendarDates.year(at: now, in: target.zone)
        let cacheKey = RenderKey.keptExport(slug: slug, redaction: redaction, revision: target.revision, year: year)
        if let cached = cache.cached(cacheKey) { return cached }
        guard let stored = stored(slug: slug), stored.revision == target.revision else { return try await readable(slug: slug, as: redaction)?.exported }
        let variant = exportVariant(year: year)
        if let bytes = exportFiles?.read(key, revision: target.revision, variant: variant) {
            let exported = CompiledFeed.export(stored, kept: bytes, settings: settings)
            cache.keep(cacheKey, exported)
            return exported
        }
        do {
            if let kept = try await store.keptExport(slug: slug, view: redaction, bodyUpTo: largeExportBytes), kept.revision == target.revision,
               kept.variant == variant, let bytes = kept.bytes {
                exports.noteKept(key.view, revision: kept.revision, variant: kept.variant)
                let exported: Representation
                if bytes.length > largeExportBytes {
                    exported = CompiledFeed.export(stored, streamed: streamedExport(key, revision: kept.revision, variant: variant, length: bytes.length),
                                                   etag: bytes.etag, settings: settings)
                } else {
                    exported = CompiledFeed.export(stored, kept: bytes, settings: settings)
                    exportFiles?.keep(key, revision: kept.revision, variant: variant, bytes: bytes)
                }
                cache.keep(cacheKey, exported)
                return exported
            }
        } catch {
            logger.warning("cannot read a kept export; compiling the feed", metadata: ["feed": "\(slug)", "error": "\(error)"])
        }
        // A large feed not compiled writes its export from its rows instead (issue #41): the compile would hold every series.
        // Unless an older compilation is in memory: compiling again reuses its series (an edit of a 10k feed: 0.4 s, not 0.75).
        if stored.countdownCount >= placedReadFrom, !canRecompile(slug: slug),
           let written = await batchedExport(key, stored: stored, variant: variant, spelling: OtherCalendarDates(today: CivilDate(year: year, month: 1, day: 1)),
                                             cacheKey: cacheKey) {
            return written
        }
        return try await readable(slug: slug, as: redaction)?.exported
    }

    /// `RenderSettings.exportVariant` for a year's spelling: made when the year
    /// turns, not for every miss (a string of five parts, 1% of a miss).
    private func exportVariant(year: Int) -> String {
        if let known = yearVariant.withLock({ $0.year == year ? $0.variant : nil }) { return known }
        let made = settings.exportVariant(OtherCalendarDates(today: CivilDate(year: year, month: 1, day: 1)))
        yearVariant.withLock { $0 = (year, made) }
        return made
    }

    /// The body of a kept export too large to hold, read from the store as it is sent.
    func streamedExport(_ key: CompiledKey, revision: Int64, variant: String, length: Int) -> StreamedBody {
        StreamedBody(length: length) { [store] offset in
            try await store.keptExportChunk(slug: key.slug, view: key.redaction, revision: revision, variant: variant, offset: offset,
                                            length: StreamedBody.chunkBytes)
        }
    }

    /// `result` with its export sent from the store when it is too large to
    /// hold: kept there first (awaited, as nothing else holds the bytes after),
    /// and held after all when the store refuses.
    private func sendingLargeExport(_ result: CompiledFeed, key: CompiledKey) async -> CompiledFeed {
        guard result.exported.streamed == nil, result.exported.byteCount > largeExportBytes else { return result }
        let export = KeptExport(revision: result.revision, variant: settings.exportVariant(result.otherCalendarDates), bytes: result.exported.kept)
        do {
            try await exports.keepNow(export, for: key.view)
            logger.info("export too large to hold: sent from the store", metadata: ["feed": "\(key.slug)", "bytes": "\(result.exported.byteCount)",
                                                                                  "limit": "\(largeExportBytes)"])
            return result.sendingExport(streamedExport(key, revision: export.revision, variant: export.variant, length: result.exported.byteCount))
        } catch {
            logger.warning("cannot keep a large export in the store; holding it", metadata: ["feed": "\(key.slug)", "error": "\(error)"])
            return result
        }
    }

    /// Keeps `result`'s export in the store for the misses after it, unless it
    /// is known to be kept. In the background: a read never waits on a write.
    private func keepExport(_ result: CompiledFeed, key: CompiledKey, sameAsFull: Bool) {
        // One sent from the store was kept before it was made so.
        guard sameAsFull || result.exported.streamed == nil else { return }
        let variant = settings.exportVariant(result.otherCalendarDates)
        guard !exports.isKept(key.view, revision: result.revision, variant: variant) else { return }
        exports.keep(KeptExport(revision: result.revision, variant: variant, bytes: sameAsFull ? nil : result.exported.kept), for: key.view)
    }

    /// The full compilation of `slug` in memory, current or stale.
    private func keptFull(_ slug: String) -> CompiledFeed? {
        compiled.withLock { $0.feeds.peek(CompiledKey(slug: slug, redaction: .none)) }
    }

    /// What a first page read by place needs of `slug` as `redaction`: its row
    /// and the identity its compilation would have. Nil when a compilation is
    /// in memory or on its way (it answers), the feed is small, or its working
    /// days count another feed's holidays (those need that feed's series).
    package func uncompiled(slug: String, as redaction: Redaction) -> (stored: StoredFeed, identity: CompiledFeed.Identity)? {
        guard let target = target(slug: slug, as: redaction), let stored = stored(slug: slug), stored.revision == target.revision,
              stored.countdownCount >= placedReadFrom, stored.feed.holidays == nil else { return nil }
        guard case .absent = lookup(CompiledKey(slug: slug, redaction: redaction), target, now: clock(), compiling: false) else { return nil }
        return (stored, CompiledFeed.Identity(slug: slug, revision: target.revision, redaction: redaction, holidaysRevision: nil))
    }

    /// Whether an older full compilation of `slug` is in memory: compiling
    /// it again reuses every series that did not change, which beats writing
    /// a large feed's outputs from its rows (`batchedExport`).
    package func canRecompile(slug: String) -> Bool { keptFull(slug) != nil }

    /// The feed in full if it is in memory at its current revision; compiles nothing.
    package func inMemory(slug: String) -> CompiledFeed? {
        guard let stored = stored(slug: slug) else { return nil }
        let now = clock()
        return keptFull(slug).flatMap { $0.revision == stored.revision && $0.validUntil > now ? $0 : nil }
    }

    /// How many feeds the owner's pages that sum over every feed (tasks, the
    /// timeline, statistics) compile for one request, at most.
    package static let summedFeeds = 64

    /// The feeds for a page that sums over all of them: every feed when there
    /// are at most `summedFeeds`, else those in memory and the first others up
    /// to that many (a hosted service with 10,000 feeds must not compile them
    /// all for one page). `left` says how many were left out.
    package func feedsToSum(of feeds: [StoredFeed]? = nil) async -> (feeds: [CompiledFeed], left: Int) {
        var result: [CompiledFeed] = []
        var compiledHere = 0, left = 0
        for stored in feeds ?? storedFeeds {
            if let kept = inMemory(slug: stored.feed.slug) {
                result.append(kept)
            } else if compiledHere < Self.summedFeeds, let compiled = await feed(slug: stored.feed.slug) {
                compiledHere += 1
                result.append(compiled)
            } else {
                left += 1
            }
        }
        return (result, left)
    }

    private func build(_ key: CompiledKey, _ target: Target, now: Date) async -> CompiledFeed? {
        if let gate = compileGate.withLock({ $0 }) { await gate(key.slug) }
        let started = ContinuousClock.now
        var result: CompiledFeed?
        var shared = false
        if key.redaction == .none {
            result = await compileFull(key.slug, now: now)
        } else if let full = await feed(slug: key.slug, as: .none) {
            let previous = compiled.withLock { $0.feeds.peek(key) }
            let settings = self.settings
            result = try? await compilePool.runIfActive {
                full.redacted(key.redaction, previous: previous?.redaction == key.redaction ? previous : nil, now: now, settings: settings)
            }
            shared = result === full
        }
        if let made = result, !shared { result = await sendingLargeExport(made, key: key) }
        let evicted = compiled.withLock { state -> Int in
            if state.inFlight[key]?.revision == target.revision { state.inFlight[key] = nil }
            guard let result else { return 0 }
            if let kept = state.feeds.peek(key), kept.revision > result.revision { return 0 }
            // A view that hides nothing is the full compilation itself: counted once.
            return state.feeds.insert(key, result, size: shared ? 256 : result.approximateBytes)
        }
        if let result { keepExport(result, key: key, sameAsFull: shared) }
        if (result?.series.count ?? 0) >= 1_000 { HeapTrim.now() } else if evicted > 0 { HeapTrim.soon() }
        if let result, key.redaction == .none {
            logger.debug("feed compiled", metadata: ["feed": "\(key.slug)", "revision": "\(result.revision)", "countdowns": "\(result.series.count)",
                                                    "bytes": "\(result.approximateBytes)", "evicted": "\(evicted)",
                                                    "duration": "\(ContinuousClock.now - started)"])
        }
        return result
    }

    /// The full compilation of `slug`: countdowns read from the store (those
    /// whose row did not change reused from the stale compilation, if it is
    /// still in memory), prepared, and linked with the holidays feed.
    private func compileFull(_ slug: String, now: Date) async -> CompiledFeed? {
        let previous = keptFull(slug)
        do {
            guard let unlinked = try await compileUnlinked(slug, previous: previous, now: now) else { return nil }
            guard let holidaysSlug = unlinked.feed.holidays else { return unlinked }
            let holidays = holidaysSlug == slug ? unlinked : try await holidaysSource(holidaysSlug, now: now)
            return try await compilePool.runIfActive { unlinked.linking(holidays: holidays, now: now) }
        } catch {
            logger.error("cannot compile feed; serving its previous revision", metadata: ["feed": "\(slug)", "error": "\(error)"])
            return previous
        }
    }

    private func compileUnlinked(_ slug: String, previous: CompiledFeed?, now: Date) async throws -> CompiledFeed? {
        var known: [Int64: Countdown] = [:]
        for series in previous?.series ?? [] { if let id = series.countdown.id { known[id] = series.countdown } }
        let started = ContinuousClock.now
        guard let (stored, countdowns) = try await store.feedContents(slug: slug, reusing: known) else { return nil }
        logger.debug("feed read from the store", metadata: ["feed": "\(slug)", "countdowns": "\(countdowns.count)", "reused": "\(known.count)",
                                                           "duration": "\(ContinuousClock.now - started)"])
        let settings = self.settings
        let result = try await compilePool.runIfActive {
            CompiledFeed.compile(stored, countdowns: countdowns, previous: previous, now: now, settings: settings)
        }
        compiles.add(1, ordering: .relaxed)
        return result
    }

    /// The feed whose dates are holidays to another: only its series matter, so
    /// any current compilation serves. One that counts working days with
    /// holidays of its own is compiled here unlinked and not kept, so that two
    /// feeds naming each other never wait on each other's compile.
    private func holidaysSource(_ slug: String, now: Date) async throws -> CompiledFeed? {
        guard let stored = stored(slug: slug) else { return nil }
        let kept = keptFull(slug)
        if let kept, kept.revision == stored.revision, kept.validUntil > now { return kept }
        if stored.feed.holidays == nil { return await feed(slug: slug) }
        return try await compileUnlinked(slug, previous: kept, now: now)
    }

    // MARK: refresh

    /// Brings the catalog up to the store: reads the rows of feeds whose
    /// revision changed, drops deleted ones, reloads tokens. Compiles nothing.
    /// `force` reads every row again and drops every compilation (after
    /// `feeds/` was reloaded).
    package func refresh(force: Bool = false) async {
        await refreshes.run { await self.refreshNow(force: force) }
    }

    private func refreshNow(force: Bool) async {
        do {
            // Read before the rows: a change committed meanwhile moves it again, and the next poll looks.
            let stamp = try await store.changeStamp()
            let (known, previousTokens, previousIndex, generation, wasRead, previousStamp) = published.withLock {
                ($0.feeds, $0.tokens, $0.index, $0.generation, $0.isRead, $0.stamp)
            }
            // Nothing was written since the last look (the usual poll): one row read, not every feed's.
            if !force, wasRead, let stamp, stamp == previousStamp { return }
            let versions = try await store.feedVersions()
            let tokens = try await store.activeTokens()
            let tokenMap = Dictionary(tokens.map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
            let live = Set(versions.map(\.slug))
            let moved = versions.filter { known[$0.slug]?.revision != $0.revision }.map(\.slug)
            let removed = known.keys.filter { !live.contains($0) }
            // Nothing moved (the usual poll, once a second): publish nothing (issue #27).
            if !force, wasRead, tokenMap == previousTokens, moved.isEmpty, removed.isEmpty {
                published.withLock { $0.stamp = stamp }
                return
            }
            var feeds = known
            for slug in removed { feeds[slug] = nil }
            if force || !wasRead || moved.count > 64 {
                feeds = Dictionary(try await store.feeds().map { ($0.feed.slug, $0) }, uniquingKeysWith: { first, _ in first })
            } else {
                for slug in moved { feeds[slug] = try await store.feed(slug: slug) }
            }
            let needed = Self.redactions(feeds: feeds, tokens: tokens)
            let feedsMoved = force || !moved.isEmpty || !removed.isEmpty
            published.withLock {
                $0 = Published(feeds: feeds, heads: feeds.mapValues(Head.init), needed: needed, tokens: tokenMap, index: feedsMoved ? [:] : previousIndex,
                               generation: generation + 1, isRead: true, stamp: stamp)
            }
            compiled.withLock { state in
                state.feeds.removeAll { force || feeds[$0.slug] == nil }
            }
            exports.forget(keeping: Set(feeds.keys))
            for slug in moved { if let old = known[slug], let new = feeds[slug], old.revision != new.revision { changed(new) } }
        } catch {
            logger.error("cannot read feeds from the store; serving what was compiled before", metadata: ["error": "\(error)"])
        }
    }

    /// Which redacted views each feed needs: the public one for a public feed,
    /// and one per visibility its live tokens have.
    package static func redactions(feeds: [String: StoredFeed], tokens: [ActiveToken]) -> [String: Set<Redaction>] {
        var needed: [String: Set<Redaction>] = [:]
        for (slug, stored) in feeds where stored.feed.isPublic { needed[slug, default: []].insert(.classified) }
        for token in tokens where feeds[token.slug] != nil { needed[token.slug, default: []].insert(Redaction(link: token.visibility)) }
        for slug in needed.keys { needed[slug]?.remove(.none) }
        return needed
    }

    /// Saves the token uses gathered since the last call (a write now and then, never per request).
    package func saveTokenUses() async {
        let uses = tokenUses.withLock { uses in defer { uses = [:] }; return uses }
        guard !uses.isEmpty else { return }
        do { try await service.recordTokenUse(uses) } catch {
            logger.warning("cannot save token use", metadata: ["error": "\(error)"])
        }
    }
}

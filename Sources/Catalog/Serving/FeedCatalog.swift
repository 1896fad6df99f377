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
///
/// Where each part is: the published catalog is a value (`PublishedFeeds`),
/// brought up to the store by `FeedCatalog+Refresh`; the compiled feeds, their
/// budget and single flight are here; exported calendars and keeping them are
/// `FeedCatalog+Exports` (and `+BatchedExport`); token uses are `TokenUseLog`.
/// Which view of a feed a link reads is `Authorization.view`'s to say.
package final class FeedCatalog: Sendable {
    /// One compilation: a feed as one kind of link sees it.
    package struct CompiledKey: Hashable, Sendable {
        package var slug: String
        package var redaction: Redaction

        var view: ExportKeeper.View { ExportKeeper.View(slug: slug, redaction: redaction) }
    }

    /// What a read needs a compilation to match: the feed's revision, and that
    /// of the holidays feed its working days count with.
    struct Target: Sendable {
        var revision: Int64
        var holidaysRevision: Int64?
        var zone: Zone

        func isServed(by compiled: CompiledFeed, at now: Date) -> Bool {
            compiled.revision == revision && compiled.holidaysRevision == holidaysRevision && compiled.validUntil > now
        }
    }

    struct Compiled {
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

    /// The system's use cases, for what the catalog asks permission of.
    package let service: CountdownService
    /// The read model reads the store itself: it serves what each request's
    /// token or page allows (`view(slug:for:)`), from what it compiled.
    let store: any CountdownStore
    package let settings: RenderSettings
    package let clock: @Sendable () -> Date
    package let logger: Logger
    /// Where exports read from the store are kept (the render cache, within `--cache-mb`).
    package let cache: RenderCache
    let published = Mutex(PublishedFeeds())
    let compiled: Mutex<Compiled>
    /// When each token was last used, until saved (`saveTokenUses`).
    private let tokenUses = TokenUseLog()
    /// Exports being written in batches (`batchedExport`), one per view: the requests that come meanwhile await it.
    let batchedExports = Mutex<[CompiledKey: (revision: Int64, task: Task<Representation?, Never>)]>([:])
    let compiles = Atomic<Int>(0)
    /// How many exports were written in batches since start (`batchedExport`; tests read it).
    let batchedExportWrites = Atomic<Int>(0)
    private let indexRenders = Atomic<Int>(0)
    let refreshes = SerialJobs()
    /// Compiling (libical and rendering the export, CPU-bound) runs on threads
    /// of its own: never on Swift's cooperative pool, and one feed's long
    /// compile (100,000 countdowns) leaves a thread for the others.
    let compilePool: NIOThreadPool
    let yearVariant = Mutex<(year: Int, variant: String)>((0, ""))
    /// An export longer than this (an eighth of `--compiled-mb`) is not held:
    /// it is kept in the store and sent from there a chunk at a time.
    package let largeExportBytes: Int
    /// Called with each feed whose revision moved (a real change, not a start or a new day).
    let changed: @Sendable (StoredFeed) -> Void
    /// Writes compiled exports to the store in the background (a `Service` the server runs).
    package let exports: ExportKeeper
    /// The size from which a feed not compiled answers its first page by place (`ServerConfiguration.placedReadFrom`).
    package let placedReadFrom: Int
    /// Kept exports read from the store, as files a miss reads instead (`--export-files-mb`); nil when off.
    package let exportFiles: KeptExportFiles?

    package init(service: CountdownService, store: any CountdownStore, settings: RenderSettings, clock: @escaping @Sendable () -> Date, logger: Logger, cache: RenderCache,
         budgetBytes: Int = 256 << 20, placedReadFrom: Int = 1_000, exportFiles: KeptExportFiles? = nil,
         changed: @escaping @Sendable (StoredFeed) -> Void = { _ in }) {
        self.changed = changed
        self.exportFiles = exportFiles
        self.placedReadFrom = placedReadFrom
        exports = ExportKeeper(store: store, logger: logger)
        self.store = store
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
        tokenUses.note(token.id, at: now)
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
    func target(slug: String, as redaction: Redaction) -> Target? {
        published.withLock { published in
            guard let head = published.heads[slug] else { return nil }
            guard redaction == .none || published.needed[slug]?.contains(redaction) == true else { return nil }
            return Target(revision: head.revision, holidaysRevision: head.holidays.flatMap { published.heads[$0]?.revision }, zone: head.zone)
        }
    }

    enum Lookup {
        case kept(CompiledFeed)
        case compiling(Task<CompiledFeed?, Never>)
        case absent
    }

    /// The compilation `key` in memory when it serves `target`, else the
    /// compile in flight for that revision, else (when `compiling`) a compile
    /// started now: one lock, so concurrent first reads start one compile.
    func lookup(_ key: CompiledKey, _ target: Target, now: Date, compiling: Bool) -> Lookup {
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

    /// The full compilation of `slug` in memory, current or stale.
    func keptFull(_ slug: String) -> CompiledFeed? {
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

    /// Saves the token uses gathered since the last call (a write now and then, never per request).
    package func saveTokenUses() async {
        let uses = tokenUses.take()
        guard !uses.isEmpty else { return }
        do { try await service.recordTokenUse(uses) } catch {
            logger.warning("cannot save token use", metadata: ["error": "\(error)"])
        }
    }
}

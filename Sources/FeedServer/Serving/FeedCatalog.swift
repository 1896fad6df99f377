import Countdowns
import CountdownStore
import Services
import Foundation
import Logging
import NIOPosix
import Synchronization

/// The compiled feeds and live feed tokens, in memory. Requests only read the
/// published state (one lock, one dictionary lookup). A refresh compares the
/// store's feed revisions with the compiled ones and compiles the feeds that
/// changed; refreshes run one at a time (`SerialJobs`), and compiling (libical
/// and rendering, CPU-bound) runs on a thread of its own, off Swift's
/// cooperative pool.
///
/// Writes in this process call `refresh()` and await it, so the next request
/// sees them; writes by another process (`tminus import` beside a running
/// server, another replica on PostgreSQL) are found by `CatalogPollService`
/// (SQLite, once a second) or `FeedChangeListener` (PostgreSQL's NOTIFY).
final class FeedCatalog: Sendable {
    struct Published: Sendable {
        /// Each feed in full (what a `full` token link, the web app and the admin API read).
        var feeds: [String: CompiledFeed] = [:]
        /// Each feed as the links that read it may see it: `.classified` for a
        /// public feed, and `.titles` or `.busy` where a token has that
        /// visibility. A view that would hide nothing is the full compilation.
        var views: [String: [Redaction: CompiledFeed]] = [:]
        /// Hash of a token's secret → the token and the feed it opens.
        var tokens: [String: ActiveToken] = [:]
        /// `/`, rendered with the feeds it lists: nil until first asked for after
        /// a change (`index`), so that a change costs no render of every feed.
        var index: Representation?
        /// Moves with every published change of the feeds, so that an index
        /// rendered from older feeds is not kept.
        var generation = 0
    }

    let service: CountdownService
    var store: any CountdownStore { service.store }
    let settings: RenderSettings
    let clock: @Sendable () -> Date
    let logger: Logger
    private let published = Mutex(Published())
    private let tokenUses = Mutex<[Int64: Date]>([:])
    private let compiles = Atomic<Int>(0)
    private let indexRenders = Atomic<Int>(0)
    private let refreshes = SerialJobs()
    /// One thread per catalog: its refreshes are serialised, a slow one never
    /// occupies the request threads, and no other catalog (tests run several) waits behind it.
    private let compilePool: NIOThreadPool
    /// Called with each feed whose revision moved (a real change, not a start or a new day).
    private let changed: @Sendable (CompiledFeed) -> Void

    init(service: CountdownService, settings: RenderSettings, clock: @escaping @Sendable () -> Date, logger: Logger,
         changed: @escaping @Sendable (CompiledFeed) -> Void = { _ in }) {
        self.changed = changed
        self.service = service
        self.settings = settings
        self.clock = clock
        self.logger = logger
        compilePool = NIOThreadPool(numberOfThreads: 1)
        compilePool.start()
    }

    deinit {
        compilePool.shutdownGracefully { _ in }
    }

    // MARK: reads (the request path: memory only)

    func feed(slug: String) -> CompiledFeed? { published.withLock { $0.feeds[slug] } }

    /// The feed as a link that `redaction` applies to may see it, or nil. Never
    /// falls back to the full feed: a view is published with the token that needs it.
    func feed(slug: String, as redaction: Redaction) -> CompiledFeed? {
        published.withLock { published in
            redaction == .none ? published.feeds[slug] : published.views[slug]?[redaction]
        }
    }

    var feeds: [CompiledFeed] { published.withLock { $0.feeds.values.sorted { $0.slug < $1.slug } } }

    /// The index page of the public feeds, as of the last refresh: rendered on
    /// the first request after a change, then kept. Rendering it on every change
    /// instead made creating the 600th feed cost 40 ms instead of 12 (issue #27).
    var index: Representation {
        let (kept, feeds, generation) = published.withLock { ($0.index, $0.feeds, $0.generation) }
        if let kept { return kept }
        let rendered = IndexPage.representation(of: feeds.values.sorted { $0.slug < $1.slug }, settings: settings)
        indexRenders.add(1, ordering: .relaxed)
        published.withLock { if $0.generation == generation { $0.index = rendered } }
        return rendered
    }

    /// The live token behind `secret`, or nil. The use is noted in memory and saved later.
    func token(secret: String) -> ActiveToken? {
        guard secret.count >= 16, secret.count <= 64 else { return nil }
        let hash = Secret.hash(secret)
        // Looked up by the SHA-256 of the secret: timing says nothing about the secret itself.
        guard let token = published.withLock({ $0.tokens[hash] }) else { return nil }
        let now = clock()
        tokenUses.withLock { $0[token.id] = now }
        return token
    }

    /// How many feeds were compiled since start (tests read it).
    var compileCount: Int { compiles.load(ordering: .relaxed) }
    /// How many times the index page was rendered since start (tests read it).
    var indexRenderCount: Int { indexRenders.load(ordering: .relaxed) }

    // MARK: refresh

    /// A use case, then the published state brought up to it, so that the
    /// next read, on any route, sees the change.
    @discardableResult
    func write<T: Sendable>(_ body: @Sendable (CountdownService) async throws -> T) async throws -> T {
        let result = try await body(service)
        await refresh()
        return result
    }

    /// Brings the published state up to the store: compiles feeds whose revision
    /// changed (or whose series the clock has outrun), drops deleted ones, reloads tokens.
    /// `force` recompiles every feed (after `feeds/` was reloaded).
    func refresh(force: Bool = false) async {
        await refreshes.run { await self.refreshNow(force: force) }
    }

    private func refreshNow(force: Bool) async {
        let now = clock()
        do {
            let versions = try await store.feedVersions()
            let tokens = try await store.activeTokens()
            var (current, views, previousTokens, previousIndex, generation) = published.withLock {
                ($0.feeds, $0.views, $0.tokens, $0.index, $0.generation)
            }
            let tokenMap = Dictionary(tokens.map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
            // Nothing moved (the usual poll, once a second): publish nothing, render nothing.
            // Rendering the index and rebuilding the views on every poll cost 3% of a core
            // with 600 feeds, and made each new feed slower than the last (issue #27).
            if !force, tokenMap == previousTokens, versions.count == current.count,
               versions.allSatisfy({ version in current[version.slug].map { $0.revision == version.revision && $0.validUntil > now } ?? false }) {
                return
            }
            var compiledAny = false
            var recompiled = Set<String>()
            var moved: [CompiledFeed] = []
            let live = Set(versions.map(\.slug))
            let removed = current.keys.filter { !live.contains($0) }
            for slug in removed { current[slug] = nil; views[slug] = nil }
            for version in versions {
                let old = current[version.slug]
                if !force, let old, old.revision == version.revision, old.validUntil > now { continue }
                if let compiled = await compile(version.slug, previous: old, reload: force || old?.revision != version.revision, now: now) {
                    current[version.slug] = compiled
                    recompiled.insert(version.slug)   // its views are redacted again below, from this compilation
                    compiledAny = true
                    if let old, old.revision != compiled.revision { moved.append(compiled) }
                }
            }
            // Feeds that count working days with another feed's holidays: linked
            // after every compile above, so a holidays feed compiled later in the loop counts.
            for (slug, compiled) in current {
                guard let holidaysSlug = compiled.feed.holidays else { continue }
                let holidays = current[holidaysSlug]
                guard recompiled.contains(slug) || compiled.holidaysRevision != holidays?.revision else { continue }
                current[slug] = try await compilePool.runIfActive { compiled.linking(holidays: holidays, now: now) }
                recompiled.insert(slug)
            }
            let (feeds, settings, trim, previousViews, stale) = (current, self.settings, compiledAny, views, recompiled)
            let needed = Self.redactions(feeds: feeds, tokens: tokens)
            // The index lists the feeds: kept unless one of them changed, came or went (then rendered when asked for).
            let feedsMoved = force || compiledAny || !removed.isEmpty
            // Redacting and trimming the heap are CPU work: off the cooperative pool too.
            let newViews = try await compilePool.runIfActive {
                defer { if trim { HeapTrim.now() } }
                return Self.views(of: feeds, needed: needed, previous: previousViews, stale: stale, now: now, settings: settings)
            }
            published.withLock {
                $0 = Published(feeds: current, views: newViews, tokens: tokenMap, index: feedsMoved ? nil : previousIndex,
                               generation: generation + 1)
            }
            moved.forEach(changed)
        } catch {
            logger.error("cannot read feeds from the store; serving what was compiled before", metadata: ["error": "\(error)"])
        }
    }

    /// Which redacted views each feed needs: the public one for a public feed,
    /// and one per visibility its live tokens have.
    static func redactions(feeds: [String: CompiledFeed], tokens: [ActiveToken]) -> [String: Set<Redaction>] {
        var needed: [String: Set<Redaction>] = [:]
        for (slug, compiled) in feeds where compiled.feed.isPublic { needed[slug, default: []].insert(.classified) }
        for token in tokens where feeds[token.slug] != nil { needed[token.slug, default: []].insert(Redaction(link: token.visibility)) }
        for slug in needed.keys { needed[slug]?.remove(.none) }
        return needed
    }

    /// The views `needed`: kept from `previous` unless their feed is `stale`
    /// (compiled again in this refresh), else redacted from the full
    /// compilation, reusing the old view's series where nothing changed.
    static func views(of feeds: [String: CompiledFeed], needed: [String: Set<Redaction>], previous: [String: [Redaction: CompiledFeed]],
                      stale: Set<String>, now: Date, settings: RenderSettings) -> [String: [Redaction: CompiledFeed]] {
        var views: [String: [Redaction: CompiledFeed]] = [:]
        for (slug, redactions) in needed {
            guard let full = feeds[slug] else { continue }
            for redaction in redactions {
                let old = previous[slug]?[redaction]
                if let old, !stale.contains(slug) {
                    views[slug, default: [:]][redaction] = old
                } else {
                    views[slug, default: [:]][redaction] = full.redacted(redaction, previous: old, now: now, settings: settings)
                }
            }
        }
        return views
    }

    private func compile(_ slug: String, previous: CompiledFeed?, reload: Bool, now: Date) async -> CompiledFeed? {
        let started = ContinuousClock.now
        do {
            let stored: StoredFeed, countdowns: [Countdown]
            if reload || previous == nil {
                var known: [Int64: Countdown] = [:]
                for countdown in previous?.countdowns ?? [] { if let id = countdown.id { known[id] = countdown } }
                guard let contents = try await store.feedContents(slug: slug, reusing: known) else { return nil }
                (stored, countdowns) = contents
            } else {
                (stored, countdowns) = (previous!.stored, previous!.countdowns)
            }
            let settings = self.settings
            let compiled = try await compilePool.runIfActive {
                CompiledFeed.compile(stored, countdowns: countdowns, previous: previous, now: now, settings: settings)
            }
            compiles.add(1, ordering: .relaxed)
            logger.debug("feed compiled", metadata: ["feed": "\(slug)", "revision": "\(stored.revision)", "countdowns": "\(countdowns.count)",
                                                    "duration": "\(ContinuousClock.now - started)"])
            return compiled
        } catch {
            logger.error("cannot compile feed; serving its previous revision", metadata: ["feed": "\(slug)", "error": "\(error)"])
            return previous
        }
    }

    /// Saves the token uses gathered since the last call (a write now and then, never per request).
    func saveTokenUses() async {
        let uses = tokenUses.withLock { uses in defer { uses = [:] }; return uses }
        guard !uses.isEmpty else { return }
        do { try await service.recordTokenUse(uses) } catch {
            logger.warning("cannot save token use", metadata: ["error": "\(error)"])
        }
    }
}

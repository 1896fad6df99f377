import AsyncHTTPClient
import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Logging
import Rules
import Services
import Synchronization

/// Keeps the database in step with `feeds/`: saves each definition, imports its
/// file sources (syncing, so removed events go away), and refreshes its URL
/// sources with conditional GET. A failing source keeps its last good data and
/// is reported in the logs and on /healthz.
package final class FeedLoader: Sendable {
    package let service: CountdownService
    package let fetcher: CalendarFetcher
    /// How often each feed's rules may be previewed (`SourceUseCases.previewRules`).
    package let rulesPreviews = RulesPreviewLimit()
    package let directory: URL?
    package let logger: Logger
    /// Told of each import, fetch and change of the sources (`/metrics`, `/healthz`).
    package let activity: any SourceActivity
    private let state = Mutex<(definitions: [LoadedFeedDefinition], errors: [String], undefined: [String])>(([], [], []))
    /// URL sources added from the web app or the API, kept in the store
    /// (`source.subscribed`), with their rules compiled when they were read.
    private let subscribed = Mutex<[(subscription: SourceSubscription, rules: Result<SourceRules, SubscriptionRules.Invalid>)]>([])

    /// The instant rules with relative windows (`from: -7d`) are read at.
    package let clock: @Sendable () -> Date
    /// Opens the logins saved with web-app subscriptions.
    package let secrets: SecretKeeper?

    /// The CPU time the rules of one import may take (`WorkBudget.rulesPerImport`).
    package let rulesBudget: Duration

    package init(service: CountdownService, fetcher: CalendarFetcher, directory: URL?, logger: Logger, activity: any SourceActivity = NoSourceActivity(),
         clock: @escaping @Sendable () -> Date = Date.init, secrets: SecretKeeper? = nil,
         rulesBudget: Duration = WorkBudget.rulesPerImport) {
        self.clock = clock
        self.rulesBudget = rulesBudget
        self.secrets = secrets
        self.service = service
        self.activity = activity
        self.fetcher = fetcher
        self.directory = directory
        self.logger = logger
    }

    package var definitionErrors: [String] { state.withLock { $0.errors } }

    /// Feeds whose file was removed from `feeds/`: kept as they were (a folder
    /// that is missing for a moment must not delete anyone's countdowns), their
    /// file sources no longer read, until `tminus feeds rm` removes them.
    package var undefinedFeeds: [String] { state.withLock { $0.undefined } }

    /// What `old` defined from the files refused now and `loaded` does not define again.
    package static func keptThroughErrors(_ old: [LoadedFeedDefinition], errors: [FeedDefinitionError], loaded: [LoadedFeedDefinition]) -> [LoadedFeedDefinition] {
        let refused = Set(errors.map(\.file))
        let slugs = Set(loaded.map(\.feed.slug))
        return old.filter { refused.contains($0.file) && !slugs.contains($0.feed.slug) }
    }

    /// Feeds with a file source (which only a feed file makes) that no file
    /// defines now; a refused file's feed (by its name, when it was never
    /// loaded) is reported as refused instead.
    private func undefinedFeeds(defined: [LoadedFeedDefinition], refusedFiles: [String]) async -> [String] {
        guard let statuses = try? await service.sources() else { return [] }
        let slugs = Set(defined.map(\.feed.slug)).union(refusedFiles.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
        return Set(statuses.filter { !$0.location.hasPrefix("http://") && !$0.location.hasPrefix("https://") }.map(\.feed))
            .subtracting(slugs).sorted()
    }

    /// Each defined feed's notice targets (`notify:`), for feeds that have some.
    package var noticeTargets: [(slug: String, targets: [NoticeTarget])] {
        state.withLock { $0.definitions.filter { !$0.notices.isEmpty }.map { ($0.feed.slug, $0.notices) } }
    }

    /// Where a feed's rules count their days (`from: -7d`): in the feed's zone,
    /// as its file says, else as the store has it (a feed made in the web app).
    package func ruleContext(for slug: String) async -> RuleContext {
        var name = state.withLock { $0.definitions.first { $0.feed.slug == slug }?.feed.timeZone }
        if name == nil { name = try? await service.feed(slug: slug)?.feed.timeZone }
        return RuleContext(now: clock(), zone: name.flatMap(Zone.named) ?? .utc)
    }

    package var urlSources: [(feed: String, source: LoadedFeedDefinition.Source)] {
        let defined = state.withLock { $0.definitions.flatMap { definition in definition.sources.filter(\.isURL).map { (definition.feed.slug, $0) } } }
        return defined + subscribedSources(excluding: defined)
    }

    /// Whether `location` is a source of `slug` in its feed file (whose rules are written there).
    package func isDefined(feed slug: String, location: String) -> Bool {
        state.withLock { $0.definitions.contains { $0.feed.slug == slug && $0.sources.contains { $0.location == location } } }
    }

    /// The digest of a subscription's rules (`LoadedFeedDefinition.Source.rulesFingerprint`).
    package static func fingerprint(subscriptionRules rules: String?) -> String {
        SHA256Hex.of("subscription\n" + (rules ?? ""))
    }

    /// The web app's and the API's subscriptions as sources, but for those the feed files define too.
    private func subscribedSources(excluding defined: [(String, LoadedFeedDefinition.Source)]) -> [(feed: String, source: LoadedFeedDefinition.Source)] {
        subscribed.withLock { $0 }.filter { entry in !defined.contains { $0.0 == entry.subscription.feed && $0.1.location == entry.subscription.location } }
            .map { entry in
                let subscription = entry.subscription
                var source = LoadedFeedDefinition.Source(location: subscription.location, isURL: true, refresh: Self.subscriptionRefresh, rules: .none,
                                                         credentials: subscription.login.map {
                                                             SavedLogin.credentials(sealed: $0, for: .init(feed: subscription.feed, location: subscription.location),
                                                                                    secrets: secrets)
                                                         },
                                                         name: URL(string: subscription.location)?.host ?? subscription.location,
                                                         rulesFingerprint: Self.fingerprint(subscriptionRules: subscription.rules))
                switch entry.rules {
                case .success(let rules): source.rules = rules
                case .failure(let invalid): source.problem = "its rules cannot be used (\(invalid)); change them in the web app or the API"
                }
                return (subscription.feed, source)
            }
    }

    /// Every source of a feed the server reads, defined or subscribed: what its rules' preview runs.
    package func sources(of slug: String, defined: [LoadedFeedDefinition.Source]) -> [LoadedFeedDefinition.Source] {
        defined + subscribedSources(excluding: defined.map { (slug, $0) }).filter { $0.feed == slug }.map(\.source)
    }

    /// How often a source added from the web app is fetched again.
    package static let subscriptionRefresh: TimeInterval = 3600

    /// Reads the web app's subscriptions again (at start, and after one is added or removed).
    /// Also before each round of refreshes: another replica may have added one,
    /// or changed its login or rules. Unchanged ones keep their compiled rules.
    package func reloadSubscriptions() async {
        do {
            let list = try await service.subscriptions()
            let known = subscribed.withLock { $0 }
            guard list != known.map(\.subscription) else { return }
            let compiled = list.map { subscription in
                known.first { $0.subscription == subscription } ?? (subscription, Result { () throws(SubscriptionRules.Invalid) -> SourceRules in
                    try subscription.rules.flatMap(SubscriptionRules.compile).map { SourceRules(levels: [$0]) } ?? .none
                })
            }
            for case let (subscription, .failure(invalid)) in compiled where !known.contains(where: { $0.subscription == subscription }) {
                logger.error("a subscribed source's rules cannot be used; it is not fetched until they are changed",
                             metadata: ["feed": "\(subscription.feed)", "source": "\(subscription.location)", "error": "\(invalid)"])
            }
            subscribed.withLock { $0 = compiled }
        } catch {
            logger.error("cannot read subscribed sources", metadata: ["error": "\(error)"])
        }
    }

    /// Where the rules of `location` in `slug` are kept.
    package enum RulesHome {
        /// A subscription of the web app or the API: its rules are in the store.
        case subscription(SourceSubscription)
        /// A source of the feed file: its rules are written there.
        case feedFile
        /// The feed does not fetch it.
        case none
    }

    package func rulesHome(feed slug: String, location: String) async throws -> RulesHome {
        if isDefined(feed: slug, location: location) { return .feedFile }
        return try await service.subscriptions().first { $0.feed == slug && $0.location == location }.map(RulesHome.subscription) ?? .none
    }

    /// After a subscription's rules changed (and its validators were
    /// forgotten with them): read the subscriptions again, and fetch that
    /// source now, in full, so the feed shows the new rules' result.
    package func rulesChanged(feed slug: String, location: String) async {
        await reloadSubscriptions()
        if let source = urlSources.first(where: { $0.feed == slug && $0.source.location == location })?.source {
            await refresh(feed: slug, source: source)
        }
    }

    /// Loads every definition and imports file sources. Called at start and on
    /// SIGHUP; the caller then recompiles every feed (`FeedCatalog.refresh(force:)`).
    package func reload() async {
        await reloadSubscriptions()
        guard let directory else { return }
        let (loaded, errors) = (try? await Offload.run { FeedDefinitionLoader.load(directory: directory) }) ?? ([], [])
        let before = state.withLock { $0.definitions }
        // A file refused now keeps what it defined before (its sources are still read, its notices still sent) until it is mended.
        let definitions = loaded + Self.keptThroughErrors(before, errors: errors, loaded: loaded)
        for error in errors { logger.error("feed definition rejected; its feed is kept as it was", metadata: ["error": "\(error)"]) }
        for warning in definitions.flatMap(\.warnings) { logger.warning("feed definition", metadata: ["warning": "\(warning)"]) }
        let undefined = await undefinedFeeds(defined: definitions, refusedFiles: errors.map(\.file))
        for slug in undefined {
            logger.warning("feed no longer defined by a file; kept as it was", metadata: ["feed": "\(slug)", "remove": "tminus feeds rm \(slug)"])
        }
        state.withLock { $0 = (definitions, errors.map(\.description), undefined) }
        for definition in definitions {
            do {
                try await service.saveFeed(definition.feed)
            } catch {
                logger.error("cannot save feed", metadata: ["feed": "\(definition.feed.slug)", "error": "\(error)"])
                continue
            }
            for source in definition.sources where !source.isURL { await importFile(source, into: definition.feed.slug) }
        }
        logger.info("feeds loaded", metadata: ["feeds": "\(definitions.count)", "rejected": "\(errors.count)", "directory": "\(directory.path)"])
        // A URL source whose rules a reload changed is fetched now, and in full
        // (`refresh` sends no validators for rules other than the last import's).
        // At start `before` is empty: those wait for the first round of refreshes,
        // which finds them due, so that a slow source does not hold up the start.
        for (slug, source) in Self.rulesChanged(from: before, to: definitions) {
            logger.info("source rules changed; fetching it in full", metadata: ["feed": "\(slug)", "source": "\(source.location)"])
            await refresh(feed: slug, source: source)
        }
    }

    /// The URL sources of `new` that `old` had with other rules.
    package static func rulesChanged(from old: [LoadedFeedDefinition], to new: [LoadedFeedDefinition]) -> [(String, LoadedFeedDefinition.Source)] {
        var known: [String: String] = [:]
        for definition in old { for source in definition.sources where source.isURL { known[definition.feed.slug + " " + source.location] = source.rulesFingerprint } }
        return new.flatMap { definition in
            definition.sources.filter { source in
                source.isURL && known[definition.feed.slug + " " + source.location].map { $0 != source.rulesFingerprint } == true
            }.map { (definition.feed.slug, $0) }
        }
    }

    private func importFile(_ source: LoadedFeedDefinition.Source, into slug: String) async {
        guard let data = FileManager.default.contents(atPath: source.location) else {
            await record(slug, source.location, error: LocalSourceProblem.problem(at: source.location))
            return
        }
        await importData([UInt8](data), source: source, into: slug)
    }

    /// What an import into `slug` does to each event by `rules`, counted in
    /// the feed's zone as of now; nil when there are none. Each call is one
    /// import's: its rules get `WorkBudget.rulesPerImport` of CPU in all, and
    /// stop between two events when the import is cancelled (a shutdown).
    package func apply(_ rules: SourceRules, into slug: String) async -> (@Sendable (Countdown) throws -> Countdown?)? {
        guard !rules.isEmpty else { return nil }
        let context = await ruleContext(for: slug)
        let budget = WorkBudget(limit: rulesBudget) { WorkerPool.isCancelled }
        return { countdown in try rules.apply(countdown, in: context, budget: budget).0 }
    }

    /// The rules an import by hand into `slug` goes through, and their digest
    /// (`importedWith`): `given` when there are some; else, for an address the
    /// feed fetches anyway, the rules its feed file or its subscription gives
    /// it, so that importing it by hand does not bring back what they drop.
    package func importRules(feed slug: String, location: String?, given: SubscriptionRules.Checked?) async -> (apply: (@Sendable (Countdown) throws -> Countdown?)?, digest: String) {
        if let given {
            return (await apply(SourceRules(levels: [given.rules]), into: slug), Self.fingerprint(subscriptionRules: given.text))
        }
        guard let location, let source = urlSources.first(where: { $0.feed == slug && $0.source.location == location })?.source else {
            return (nil, Self.fingerprint(subscriptionRules: nil))
        }
        return (await apply(source.rules, into: slug), source.rulesFingerprint)
    }

    private func importData(_ data: [UInt8], source: LoadedFeedDefinition.Source, into slug: String, etag: String? = nil,
                            lastModified: String? = nil) async {
        var options = ImportOptions(source: source.location, sync: true, createFeed: false)
        options.duplicates = source.duplicates
        options.rules = await apply(source.rules, into: slug)
        do {
            let report = try await service.importCalendar(data, intoFeed: slug, options: options)
            activity.imported(via: .source, ok: true)
            try await service.recordFetch(feed: slug, location: source.location, etag: etag, lastModified: lastModified, error: nil,
                                          importedWith: source.rulesFingerprint)
            await sourcesChanged()
            logger.info("source imported", metadata: ["feed": "\(slug)", "source": "\(source.location)", "result": "\(report)"])
        } catch {
            activity.imported(via: .source, ok: false)
            await record(slug, source.location, error: "\(error)")
        }
    }

    private func record(_ slug: String, _ location: String, error: String) async {
        logger.error("source failed; keeping its last good data", metadata: ["feed": "\(slug)", "source": "\(location)", "error": "\(error)"])
        try? await service.recordFetch(feed: slug, location: location, etag: nil, lastModified: nil, error: error)
        await sourcesChanged()
    }

    /// Fetches one URL source now (conditional GET with the stored validators).
    /// Another replica that holds the source's lease is fetching it right now:
    /// this one leaves it alone (the lease ends with that fetch, or after
    /// the fetch deadline and a margin, if that replica died).
    package func refresh(feed slug: String, source: LoadedFeedDefinition.Source) async {
        if let problem = source.problem {
            await record(slug, source.location, error: problem)
            return
        }
        do {
            guard try await service.leaseRefresh(feed: slug, location: source.location, for: fetcher.timeoutSeconds + 30) else {
                logger.debug("source is being fetched by another replica", metadata: ["feed": "\(slug)", "source": "\(source.location)"])
                return
            }
        } catch {
            logger.warning("cannot lease source for a fetch", metadata: ["feed": "\(slug)", "source": "\(source.location)", "error": "\(error)"])
            return
        }
        // Validators only for the rules the last import went through: with other rules, a 304 would keep the old result.
        let status = try? await service.sources(feed: slug).first { $0.location == source.location }
        let known = status?.importedWith == source.rulesFingerprint ? status : nil
        do {
            switch try await fetcher.fetch(source.location, etag: known?.etag, lastModified: known?.lastModifiedHeader, credentials: source.credentials) {
            case .notModified:
                activity.refreshed(.notModified)
                try await service.recordFetch(feed: slug, location: source.location, etag: nil, lastModified: nil, error: nil)
                await sourcesChanged()
                logger.debug("source not modified", metadata: ["feed": "\(slug)", "source": "\(source.location)"])
            case .fetched(let bytes, let etag, let lastModified):
                activity.refreshed(.fetched)
                await importData(bytes, source: source, into: slug, etag: etag, lastModified: lastModified)
            }
        } catch {
            activity.refreshed(.failed)
            await record(slug, source.location, error: "\(error)")
        }
    }

    /// Sources fetched at once: a slow source delays no other, and a feed with
    /// many sources does not open many connections at a time.
    package static let concurrentFetches = 4

    /// Refreshes the URL sources that are due, a few at a time; returns how many were fetched.
    @discardableResult
    package func refreshDueSources(now: Date) async -> Int {
        await reloadSubscriptions()
        // One read of every source's state for the round, not one per source (that was O(S²)).
        var statuses: [String: [String: SourceStatus]] = [:]
        for status in (try? await service.sources()) ?? [] { statuses[status.feed, default: [:]][status.location] = status }
        var due: [(String, LoadedFeedDefinition.Source)] = []
        for (slug, source) in urlSources {
            let status = statuses[slug]?[source.location]
            // Rules that changed since its last import (a restart with an edited feed file) make it due at once.
            let rulesChanged = source.problem == nil && status?.lastSuccessAt != nil && status?.importedWith != source.rulesFingerprint
            if let last = status?.lastFetchedAt, now.timeIntervalSince(last) < source.refresh, !rulesChanged { continue }
            due.append((slug, source))
        }
        await withTaskGroup(of: Void.self) { group in
            var pending = due[...]
            for _ in 0..<Self.concurrentFetches {
                guard let (slug, source) = pending.popFirst() else { break }
                group.addTask { await self.refresh(feed: slug, source: source) }
            }
            while await group.next() != nil {
                guard let (slug, source) = pending.popFirst() else { continue }
                group.addTask { await self.refresh(feed: slug, source: source) }
            }
        }
        return due.count
    }

    /// What /healthz shows follows every fetch (a query per fetch, never per request).
    private func sourcesChanged() async {
        if let sources = try? await service.sources() { activity.sourcesChanged(sources) }
    }
}

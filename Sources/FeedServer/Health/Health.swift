import Catalog
import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import Notices
import Synchronization

/// What the public `/healthz` answers: only whether all is well. Anyone can
/// ask, so it says nothing about paths, sources or errors (those leaked private
/// feeds' URLs with their secrets, and the first bytes of whatever a failed
/// source returned). It is read from `HealthMonitor`'s snapshot: no query.
package struct PublicHealth: ResponseEncodable, Sendable {
    package var status: String
    /// Where the detail is, when something is wrong: the public answer names
    /// nothing of the server's (no paths, no feeds), only where to look (issue #40).
    package var see: String?

    package init(status: String) {
        self.status = status
        see = status == "degraded" ? "GET /api/health with the admin token names what is wrong" : nil
    }
}

/// What `GET /api/health` answers, behind the admin token: the detail, from a
/// snapshot that `HealthMonitor` refreshes in the background.
package struct Health: ResponseEncodable, Sendable {
    package struct Source: Codable, Sendable {
        package var feed: String
        package var source: String
        package var ok: Bool
        package var error: String?
        package var lastSuccess: String?
    }

    package var status: String
    package var database: String
    package var feeds: Int
    package var sources: [Source]
    package var definitionErrors: [String]
    /// Feeds whose file was removed from `feeds/`, kept as they were until `tminus feeds rm` (`FeedLoader.undefinedFeeds`).
    package var undefinedFeeds: [String] = []
    package var renderCache: RenderCache.Statistics
    /// The compiled feeds in memory, within `--compiled-mb`.
    package var compiledFeeds: FeedCatalog.Statistics
    /// Each feed's served calendars: sizes, event counts, and client limits passed.
    package var outputs: [OutputBudget] = []
    /// Each feed's webhook and ntfy targets: pending, failing, the last deliveries.
    package var notices: [NoticeOutbox.LaneStatus] = []
    /// Each MQTT broker: connected or not, the topics kept.
    package var brokers: [MQTTPublisher.Status] = []
}

/// Keeps the parts of `Health` that need the store (source states, a quick
/// integrity check) fresh, off the request path.
package final class HealthMonitor: Sendable {
    private let state = Mutex<(sources: [Health.Source], database: String)>(([], "not checked yet"))
    private let states = Mutex<[ServerMetrics.Source]>([])

    package init() {}

    package func update(sources: [SourceStatus]) {
        let entries = sources.map { source in
            Health.Source(feed: source.feed, source: source.location, ok: source.lastError == nil, error: source.lastError,
                          lastSuccess: source.lastSuccessAt.map(HTTPDate.format))
        }
        state.withLock { $0.sources = entries }
        states.withLock { $0 = sources.map { ServerMetrics.Source(ok: $0.lastError == nil, lastSuccessAt: $0.lastSuccessAt) } }
    }

    package var sourceStates: [ServerMetrics.Source] { states.withLock { $0 } }

    package func update(database: String) { state.withLock { $0.database = database } }

    /// True when the last database check found something wrong (checked again each tick until it clears).
    package var databaseHadAProblem: Bool { state.withLock { $0.database != "ok" && $0.database != "not checked yet" } }

    /// `/healthz`: "starting" until the catalog was first read from the store.
    package func status(definitionErrors: [String], catalogRead: Bool = true, noticesFailing: Bool = false) -> PublicHealth {
        let (sources, database) = state.withLock { ($0.sources, $0.database) }
        guard catalogRead else { return PublicHealth(status: "starting") }
        let healthy = Self.isHealthy(sources: sources, database: database, definitionErrors: definitionErrors) && !noticesFailing
        return PublicHealth(status: healthy ? "ok" : "degraded")
    }

    private static func isHealthy(sources: [Health.Source], database: String, definitionErrors: [String]) -> Bool {
        sources.allSatisfy(\.ok) && definitionErrors.isEmpty && (database == "ok" || database == "not checked yet")
    }

    package func snapshot(catalog: FeedCatalog, cache: RenderCache, definitionErrors: [String], undefinedFeeds: [String] = [],
                          notices: NoticeWatcher? = nil) -> Health {
        let (sources, database) = state.withLock { ($0.sources, $0.database) }
        let healthy = Self.isHealthy(sources: sources, database: database, definitionErrors: definitionErrors) && !(notices?.anyFailing ?? false)
        return Health(status: healthy ? "ok" : "degraded", database: database, feeds: catalog.feedCount, sources: sources,
                      definitionErrors: definitionErrors, undefinedFeeds: undefinedFeeds, renderCache: cache.statistics, compiledFeeds: catalog.statistics,
                      notices: notices?.outbox.statuses ?? [], brokers: notices?.mqttStatuses ?? [])
    }
}

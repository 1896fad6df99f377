import CountdownStore
import Foundation
import Hummingbird
import Synchronization

/// What `/healthz` answers: a snapshot that `HealthMonitor` refreshes in the
/// background, so a health check never runs a query.
struct Health: ResponseEncodable, Sendable {
    struct Source: Codable, Sendable {
        var feed: String
        var source: String
        var ok: Bool
        var error: String?
        var lastSuccess: String?
    }

    var status: String
    var database: String
    var feeds: Int
    var sources: [Source]
    var definitionErrors: [String]
    var renderCache: RenderCache.Statistics
}

/// Keeps the parts of `Health` that need the store (source states, a quick
/// integrity check) fresh, off the request path.
final class HealthMonitor: Sendable {
    private let state = Mutex<(sources: [Health.Source], database: String)>(([], "not checked yet"))

    func update(sources: [SourceStatus]) {
        let entries = sources.map { source in
            Health.Source(feed: source.feed, source: source.location, ok: source.lastError == nil, error: source.lastError,
                          lastSuccess: source.lastSuccessAt.map(HTTPDate.format))
        }
        state.withLock { $0.sources = entries }
    }

    func update(database: String) { state.withLock { $0.database = database } }

    func snapshot(catalog: FeedCatalog, cache: RenderCache, definitionErrors: [String]) -> Health {
        let (sources, database) = state.withLock { ($0.sources, $0.database) }
        let healthy = sources.allSatisfy(\.ok) && definitionErrors.isEmpty && (database == "ok" || database == "not checked yet")
        return Health(status: healthy ? "ok" : "degraded", database: database, feeds: catalog.feeds.count, sources: sources,
                      definitionErrors: definitionErrors, renderCache: cache.statistics)
    }
}

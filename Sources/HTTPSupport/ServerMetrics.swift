import Catalog
import CoreMetrics
import Foundation
import Prometheus
import Services
import Subscriptions
import Synchronization

/// What `GET /metrics` answers, in Prometheus text format, behind the admin
/// token. Requests are counted through swift-metrics' API with this server's
/// own factory (not the process-wide bootstrap: tests run many servers in one
/// process, and each must count only its own requests), backed by a
/// swift-prometheus registry. Labels never carry a token or an unbounded
/// value: routes are Hummingbird's patterns (`/feeds/{slug}.ics`, never the
/// path), with no query string; an unmatched request is `NotFound`.
/// Figures kept elsewhere (the render cache, the catalog, sources,
/// connections) are read when scraped.
package final class ServerMetrics: Sendable {
    /// A source's outcome as a scrape reads it (the health monitor keeps them).
    package struct Source: Sendable {
        package var ok: Bool
        package var lastSuccessAt: Date?

        package init(ok: Bool, lastSuccessAt: Date?) {
            self.ok = ok
            self.lastSuccessAt = lastSuccessAt
        }
    }

    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Connections open now (`RequestDeadline` counts them).
    package let openConnections = Atomic<Int>(0)
    /// The render cache's counters as last scraped, so that the Prometheus
    /// counters move by what happened since.
    private let lastCache = Mutex(RenderCache.Statistics())
    /// Each route, method and status's counter and route's timer, made once:
    /// making them through the factory for every request (its registry's
    /// lock, label arrays, the key) was on the 304 path (issue #41).
    private let requestMetrics = Mutex<[RequestLabels: RequestMetrics]>([:])

    private struct RequestLabels: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct RequestMetrics {
        var count: CoreMetrics.Counter
        var duration: CoreMetrics.Timer
    }

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    package func request(route: String, method: String, status: Int, duration: Duration) {
        let labels = RequestLabels(route: route.isEmpty ? "NotFound" : route, method: method, status: status)
        let metrics = requestMetrics.withLock { made in
            if let metrics = made[labels] { return metrics }
            let metrics = RequestMetrics(
                count: Counter(label: "tminus_http_requests_total",
                               dimensions: [("route", labels.route), ("method", labels.method), ("status", String(labels.status))], factory: factory),
                duration: CoreMetrics.Timer(label: "tminus_http_request_duration_seconds", dimensions: [("route", labels.route)], factory: factory))
            made[labels] = metrics
            return metrics
        }
        metrics.count.increment()
        metrics.duration.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// An import finished.
    package func imported(via channel: ImportChannel, ok: Bool) {
        Counter(label: "tminus_imports_total", dimensions: [("via", channel.rawValue), ("outcome", ok ? "ok" : "refused")], factory: factory).increment()
    }

    /// A URL source's fetch ended.
    package func sourceRefreshed(_ outcome: RefreshOutcome) {
        Counter(label: "tminus_source_refreshes_total", dimensions: [("outcome", outcome.rawValue)], factory: factory).increment()
    }

    /// A metric's whole name and help text as swift-prometheus 2.x takes them:
    /// the name given whole (no namespace or unit parts), so scrapes keep the names they had.
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The text a scrape answers, with the figures read now: the catalog's and
    /// the cache's, and the health monitor's (`sources`, `databaseOK`), passed
    /// as values so this sits below every HTTP target.
    package func scrape(catalog: FeedCatalog, cache: RenderCache, sources: [Source], databaseOK: Bool) -> [UInt8] {
        let compiled = catalog.statistics
        registry.makeGauge(descriptor: Self.named("tminus_feeds", "Feeds in the store")).set(to: Double(catalog.feedCount))
        registry.makeGauge(descriptor: Self.named("tminus_compiled_feeds", "Compilations in memory (a feed, or a view of one)")).set(to: Double(compiled.feeds))
        registry.makeGauge(descriptor: Self.named("tminus_compiled_countdowns", "Countdowns in the compiled feeds"))
            .set(to: Double(compiled.countdowns))
        registry.makeGauge(descriptor: Self.named("tminus_compiled_bytes", "Approximate bytes held by compiled feeds")).set(to: Double(compiled.bytes))
        let statistics = cache.statistics
        let last = lastCache.withLock { last in defer { last = statistics }; return last }
        for (name, now, before) in [("hits", statistics.hits, last.hits), ("misses", statistics.misses, last.misses),
                                    ("evictions", statistics.evictions, last.evictions)] {
            registry.makeCounter(descriptor: Self.named("tminus_render_cache_\(name)_total", "Render cache \(name)")).increment(by: Int64(max(0, now - before)))
        }
        registry.makeGauge(descriptor: Self.named("tminus_render_cache_bytes", "Bytes held by the render cache")).set(to: Double(statistics.bytes))
        registry.makeGauge(descriptor: Self.named("tminus_render_cache_entries", "Renders held by the render cache")).set(to: Double(statistics.entries))
        for state in ["ok", "failing"] {
            registry.makeGauge(descriptor: Self.named("tminus_sources", "URL sources by the outcome of their last refresh"), labels: [("state", state)])
                .set(to: Double(sources.filter { ($0.ok ? "ok" : "failing") == state }.count))
        }
        let oldest = sources.compactMap(\.lastSuccessAt).min().map { Date().timeIntervalSince($0) } ?? 0
        registry.makeGauge(descriptor: Self.named("tminus_source_oldest_success_age_seconds", "Seconds since the least recently refreshed source last succeeded"))
            .set(to: oldest)
        registry.makeGauge(descriptor: Self.named("tminus_open_connections", "HTTP connections open now")).set(to: Double(openConnections.load(ordering: .relaxed)))
        registry.makeGauge(descriptor: Self.named("tminus_database_ok", "1 when the last database check found nothing wrong"))
            .set(to: databaseOK ? 1 : 0)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

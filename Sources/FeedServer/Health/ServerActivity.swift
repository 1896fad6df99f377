import CountdownStore
import HTTPSupport
import Services
import Subscriptions

/// Where the loader's reports land in a running server: imports and fetches
/// are counted for `/metrics`, and the sources' state is what `/healthz` shows.
package struct ServerActivity: SourceActivity {
    package let health: HealthMonitor
    package let metrics: ServerMetrics

    package init(health: HealthMonitor, metrics: ServerMetrics) {
        self.health = health
        self.metrics = metrics
    }

    package func imported(via channel: ImportChannel, ok: Bool) { metrics.imported(via: channel, ok: ok) }
    package func refreshed(_ outcome: RefreshOutcome) { metrics.sourceRefreshed(outcome) }
    package func sourcesChanged(_ sources: [SourceStatus]) { health.update(sources: sources) }
}

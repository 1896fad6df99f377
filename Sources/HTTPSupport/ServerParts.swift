import Catalog
import CountdownStore
import Foundation
import Logging
import Notices
import Services
import Subscriptions

/// What the groups of routes work with: the use cases, the compiled feeds and
/// their renders, and the server's settings. `buildServer` makes it once; the
/// admin API and the web app take it whole (and read it as their own members)
/// instead of each listing the same dependencies.
package struct ServerParts: Sendable {
    package let service: CountdownService
    package let catalog: FeedCatalog
    package let renderer: FeedRenderer
    package let settings: RenderSettings
    package let clock: @Sendable () -> Date
    package let loader: FeedLoader
    package let fetcher: CalendarFetcher
    /// Counts the imports of the admin API and the web app.
    package let metrics: ServerMetrics
    /// Largest request body accepted (imports).
    package let maxBodyBytes: Int
    package let logger: Logger
    /// The feeds' notice targets and their delivery logs (the web app shows them).
    package var notices: NoticeWatcher? = nil
    /// Seals the logins saved with web-app subscriptions.
    package var secrets: SecretKeeper? = nil

    package init(service: CountdownService, catalog: FeedCatalog, renderer: FeedRenderer, settings: RenderSettings, clock: @escaping @Sendable () -> Date, loader: FeedLoader, fetcher: CalendarFetcher, metrics: ServerMetrics, maxBodyBytes: Int, logger: Logger, notices: NoticeWatcher? = nil, secrets: SecretKeeper? = nil) {
        self.service = service
        self.catalog = catalog
        self.renderer = renderer
        self.settings = settings
        self.clock = clock
        self.loader = loader
        self.fetcher = fetcher
        self.metrics = metrics
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
        self.notices = notices
        self.secrets = secrets
    }

    /// For reads; every write goes through `service`.
}

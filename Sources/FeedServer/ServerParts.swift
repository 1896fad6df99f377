import CountdownStore
import Foundation
import Logging
import Services

/// What the groups of routes work with: the use cases, the compiled feeds and
/// their renders, and the server's settings. `buildServer` makes it once; the
/// admin API and the web app take it whole (and read it as their own members)
/// instead of each listing the same dependencies.
struct ServerParts: Sendable {
    let service: CountdownService
    let catalog: FeedCatalog
    let renderer: FeedRenderer
    let settings: RenderSettings
    let clock: @Sendable () -> Date
    let loader: FeedLoader
    let fetcher: CalendarFetcher
    /// Largest request body accepted (imports).
    let maxBodyBytes: Int
    let logger: Logger
    /// The feeds' notice targets and their delivery logs (the web app shows them).
    var notices: NoticeWatcher? = nil
    /// Seals the logins saved with web-app subscriptions.
    var secrets: SecretKeeper? = nil

    /// For reads; every write goes through `service`.
    var store: any CountdownStore { service.store }
}

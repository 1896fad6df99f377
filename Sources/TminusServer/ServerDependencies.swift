import Catalog
import CountdownStore
import FeedServer
import Foundation
import HTTPSupport
import Logging
import Notices
import Services
import Subscriptions
import WebApp

/// Everything the routes and the background services work with, made once
/// by `buildServices`. The routes (`buildRouter`) only read it; the background
/// services (`backgroundServices`) are what keeps it in step with the store,
/// the feed files and the sources, and run only in a serving application.
package struct ServerDependencies: Sendable {
    package var configuration: ServerConfiguration
    package var store: any CountdownStore
    package var parts: ServerParts
    package var cache: RenderCache
    package var metrics: ServerMetrics
    package var health: HealthMonitor
    package var token: AdminToken
    /// Told when the admin token is used; runs among the background services.
    package var tokenNotice: AdminTokenNotice
    package var csrf: CSRFToken
    package var sessions: StorePersistDriver
    package var notices: NoticeWatcher
    package var logger: Logger

    package var catalog: FeedCatalog { parts.catalog }
    package var loader: FeedLoader { parts.loader }
    package var renderer: FeedRenderer { parts.renderer }
}

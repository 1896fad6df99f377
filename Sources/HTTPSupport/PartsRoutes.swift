import Catalog
import CountdownStore
import Foundation
import Logging
import Notices
import Services
import Subscriptions

/// A group of routes over the server's parts (the admin API, the web app):
/// what it uses of them, named once here, and the principal its use cases
/// run as. Typed members, not a lookup of anything `ServerParts` holds.
package protocol PartsRoutes {
    var parts: ServerParts { get }
    /// Who this group's requests act as, once its middleware let them in.
    static var principal: Principal { get }
}

extension PartsRoutes {
    /// The use cases, run as the request's principal (a person's token) or the group's.
    package var service: CountdownService { parts.service.acting(as: RequestPrincipal.current ?? Self.principal) }
    /// The sources' use cases, run as `principal`.
    package var sources: SourceUseCases { SourceUseCases(service: service, loader: loader, fetcher: fetcher, secrets: secrets) }
    package var catalog: FeedCatalog { parts.catalog }
    package var renderer: FeedRenderer { parts.renderer }
    package var settings: RenderSettings { parts.settings }
    package var clock: @Sendable () -> Date { parts.clock }
    package var loader: FeedLoader { parts.loader }
    package var fetcher: CalendarFetcher { parts.fetcher }
    package var metrics: ServerMetrics { parts.metrics }
    package var maxBodyBytes: Int { parts.maxBodyBytes }
    package var logger: Logger { parts.logger }
    package var notices: NoticeWatcher? { parts.notices }
    package var secrets: SecretKeeper? { parts.secrets }
}

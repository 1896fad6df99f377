import AsyncHTTPClient
import CountdownStore
import FeedServer
import Foundation
import Hummingbird
import Logging
import Notices
import Pages
import ServiceLifecycle
import Services
import StoreFactory
import Subscriptions
import WebApp

/// The server, built in one place so that `tminus serve` and the tests run the
/// same thing: store → feeds/ definitions → compiled feeds → routes → background
/// services. The store is opened by the caller (`DatabaseLocation.withStore`),
/// and stays open while the application runs.
public func buildApplication(_ configuration: ServerConfiguration, store: any CountdownStore,
                             logger: Logger = Logger(label: "tminus")) async throws -> Application<RouterResponder<ServerContext>> {
    try await buildServer(configuration, store: store, logger: logger).application
}

/// The parts of a running server that tests look into.
package struct Server {
    package var application: Application<RouterResponder<ServerContext>>
    package var store: any CountdownStore
    package var catalog: FeedCatalog
    package var cache: RenderCache
    package var metrics: ServerMetrics
    package var renderer: FeedRenderer
}

package func buildServer(_ configuration: ServerConfiguration, store: any CountdownStore, logger: Logger) async throws -> Server {
    HeapTrim.limitArenas()
    let service = CountdownService(store: store)
    let token = try await AdminToken.setUp(service: service, configuredFile: configuration.adminTokenFile, database: configuration.database, logger: logger)
    let pages = try WebPages.load()
    let settings = RenderSettings(baseURL: configuration.baseURL ?? "http://\(configuration.host):\(configuration.port)", gzip: configuration.gzip,
                                  maxOccurrences: store.limits.maxOccurrences, pages: pages, build: configuration.build)
    let cache = RenderCache(budgetBytes: configuration.cacheBytes)
    let renderer = FeedRenderer(cache: cache, settings: settings, cursorKey: try await ServerKeys.cursorKey(service), clock: configuration.clock, logger: logger)
    let purges = PurgeNotifier(baseURL: settings.baseURL, logger: logger, policy: AddressPolicy(allowPrivate: configuration.allowPrivateSources))
    let catalog = FeedCatalog(service: service, settings: settings, clock: configuration.clock, logger: logger, cache: cache,
                              budgetBytes: configuration.compiledBytes, changed: purges.changed)
    let fetcher = CalendarFetcher(maxBytes: store.limits.maxInputBytes, timeout: configuration.fetchTimeout,
                                  allowPrivate: configuration.allowPrivateSources)
    let health = HealthMonitor()
    let metrics = ServerMetrics()
    let secrets = try SecretKeeper(configured: configuration.secretsKeyFile, database: configuration.database, logger: logger)
    try await secrets.resealUnbound(service)
    let loader = FeedLoader(service: service, fetcher: fetcher, directory: configuration.feedsDirectory.map { URL(fileURLWithPath: $0) },
                            logger: logger, activity: ServerActivity(health: health, metrics: metrics), clock: configuration.clock,
                            secrets: secrets, rulesBudget: configuration.rulesBudget)
    await loader.reload()
    await catalog.refresh(force: true)
    health.update(sources: (try? await store.sources()) ?? [])
    let sender = NoticeSender(policy: AddressPolicy(allowPrivate: configuration.allowPrivateSources), userAgent: "tminus/\(configuration.build)",
                              clock: configuration.clock)
    let outbox = NoticeOutbox(backoff: configuration.noticeBackoff, clock: configuration.clock, logger: logger) { notice, target throws(NoticeSender.Failed) in
        try await sender.send(notice, to: target)
    }
    let notices = NoticeWatcher(loader: loader, feeds: CompiledNoticeFeeds(catalog: catalog, renderer: renderer), service: service, outbox: outbox, version: configuration.build,
                                clock: configuration.clock, logger: logger)

    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: RequestLogMiddleware())
    PublicRoutes(catalog: catalog, renderer: renderer, images: ImageRoute(store: store, cache: cache),
                 health: { health.status(definitionErrors: loader.definitionErrors, catalogRead: catalog.isRead, noticesFailing: notices.anyFailing) })
        .register(on: router)
    let csrf = CSRFToken(key: try await ServerKeys.csrfKey(service))
    let sessions = StorePersistDriver(service: service, logger: logger)
    let parts = ServerParts(service: service, catalog: catalog, renderer: renderer, settings: settings, clock: configuration.clock, loader: loader,
                            fetcher: fetcher, metrics: metrics, maxBodyBytes: configuration.maxBodyBytes, logger: logger, notices: notices, secrets: secrets)
    WebApp(parts: parts, pages: settings.pages, csrf: csrf, throttle: SignInThrottle(), trustForwardedFor: configuration.trustForwardedFor)
        .register(on: router, sessions: sessions)
    AdminRoutes(parts: parts, health: { health.snapshot(catalog: catalog, cache: cache, definitionErrors: loader.definitionErrors, notices: notices) })
        .register(on: router, token: token)
    // Prometheus text, behind the admin token (a scrape config sends it as a bearer token).
    router.group("metrics").add(middleware: AdminAuthMiddleware(token: token)).get { _, _ in
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: metrics.scrape(catalog: catalog, cache: cache, health: health))))
    }

    var poll = CatalogPollService(catalog: catalog, health: health, store: store, interval: configuration.pollInterval)
    var services: [any Service] = [ReloadOnHangupService(loader: loader, catalog: catalog, logger: logger), sessions]
    if let notices = store.changeNotices {
        services.append(FeedChangeService(notices: notices, catalog: catalog, logger: logger))
        poll.revisionTicks = 30
    }
    services.append(poll)
    services.append(NoticeService(watcher: notices, interval: configuration.noticeInterval))
    if let deadline = configuration.shutdownDeadline { services.append(ShutdownDeadline(limit: deadline, logger: logger)) }
    if configuration.refreshSources { services.append(SourceRefreshService(loader: loader, catalog: catalog, clock: configuration.clock)) }
    let limits = configuration.connections
    let idle = limits.timeAmounts.idle
    let maxConnections = limits.resolvedMaxConnections(logger: logger)
    logger.notice("tminus ready", metadata: ["url": "\(settings.baseURL)", "database": "\(configuration.database)", "feeds": "\(catalog.feedCount)",
                                             "adminTokenFile": "\(token.file)", "cacheMB": "\(configuration.cacheBytes >> 20)", "compiledMB": "\(configuration.compiledBytes >> 20)",
                                             "maxConnections": "\(maxConnections)"])
    if let setup = try await OwnerPassword.issueSetupToken(in: service) {
        if let show = configuration.showSetupLink {
            show("\(settings.baseURL)/app/setup/\(setup)")
            logger.notice("the web app has no password yet: a one-time setup link was printed on the terminal (or run `tminus password`)")
        } else {
            logger.notice("the web app has no password yet: run `tminus password` on this machine to set it (the setup link is shown only on a terminal)")
        }
    }
    let application = Application(router: router,
                                  server: .http1(configuration: .init(additionalChannelHandlers: [RequestDeadline(limits: limits.requestDeadline, metrics: metrics)], idleTimeout: idle)),
                                  configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tminus",
                                                       availableConnectionsDelegate: .maximum(maxConnections, logger: logger)),
                                  services: services, logger: logger)
    return Server(application: application, store: store, catalog: catalog, cache: cache, metrics: metrics, renderer: renderer)
}

import AsyncHTTPClient
import CalDAVServer
import Catalog
import CountdownStore
import FeedServer
import Foundation
import HTTPSupport
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

/// Keeps the server's public address in the store, for the links the command
/// line prints (`tminus users invite` run beside a server on another port).
private func recordPublicAddress(_ dependencies: ServerDependencies, logger: Logger) async {
    let address = "\(dependencies.parts.settings.baseURL)"
    let service = dependencies.parts.service.acting(as: .system)
    do {
        if try await service.setting(.publicAddress) != address { try await service.setSetting(.publicAddress, to: address) }
    } catch {
        logger.warning("cannot keep the server's address for the command line's links", metadata: ["error": "\(error)"])
    }
}

/// The parts of a running server that tests look into.
package struct Server {
    package var application: Application<RouterResponder<ServerContext>>
    package var dependencies: ServerDependencies
    package var store: any CountdownStore { dependencies.store }
    package var catalog: FeedCatalog { dependencies.catalog }
    package var cache: RenderCache { dependencies.cache }
    package var metrics: ServerMetrics { dependencies.metrics }
    package var renderer: FeedRenderer { dependencies.renderer }
}

/// The serving application: the routes, and the background services that
/// keep the compiled feeds in step (`withBackgroundServices: false` leaves
/// them out, for tests that drive the router alone).
package func buildServer(_ configuration: ServerConfiguration, store: any CountdownStore, logger: Logger,
                         withBackgroundServices: Bool = true) async throws -> Server {
    let dependencies = try await buildServices(configuration, store: store, logger: logger)
    let router = buildRouter(dependencies)
    let limits = configuration.connections
    let maxConnections = limits.resolvedMaxConnections(logger: logger)
    logger.notice("tminus ready", metadata: ["url": "\(dependencies.parts.settings.baseURL)", "database": "\(configuration.database)",
                                             "feeds": "\(dependencies.catalog.feedCount)", "adminTokenFile": "\(dependencies.token.file)",
                                             "cacheMB": "\(configuration.cacheBytes >> 20)", "compiledMB": "\(configuration.compiledBytes >> 20)",
                                             "maxConnections": "\(maxConnections)"])
    try await offerSetupLink(dependencies)
    await recordPublicAddress(dependencies, logger: logger)
    let application = Application(router: router,
                                  server: .http1(configuration: .init(additionalChannelHandlers: [RequestDeadline(limits: limits.requestDeadline, metrics: dependencies.metrics)],
                                                                      idleTimeout: limits.timeAmounts.idle)),
                                  configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tminus",
                                                       availableConnectionsDelegate: .maximum(maxConnections, logger: logger)),
                                  services: withBackgroundServices ? backgroundServices(dependencies) : [], logger: logger)
    return Server(application: application, dependencies: dependencies)
}

/// Makes every part once: the use cases, the keys, the compiled feeds (after
/// reading `feeds/` and importing its files), the fetcher and the notices.
package func buildServices(_ configuration: ServerConfiguration, store: any CountdownStore, logger: Logger) async throws -> ServerDependencies {
    HeapTrim.limitArenas()
    // The routes' use cases publish what they changed (the catalog refreshes, the
    // subscriptions reload); the loader's own imports are followed by the
    // refresh of their round, so its service publishes nothing, but what its
    // commits change (a defined feed) is forgotten by the routes' permission check.
    let events = ServerEvents()
    let service = CountdownService(store: store, limits: configuration.limits, events: events, clock: configuration.clock)
    let token = try await AdminToken.setUp(service: service, configuredFile: configuration.adminTokenFile, database: configuration.database, logger: logger)
    let repaired = try await service.repairKeptCountdowns { feed, count in
        logger.info("countdowns kept before 0.12 rewritten as they are understood", metadata: ["feed": "\(feed)", "countdowns": "\(count)"])
    }
    if repaired > 0 {
        logger.notice("upgrade: countdowns that held what tminus could not read are written as it read them (their warnings are on their edit pages)",
                      metadata: ["countdowns": "\(repaired)"])
    }
    let pages = try WebPages.load()
    let settings = RenderSettings(baseURL: configuration.baseURL ?? "http://\(configuration.host):\(configuration.port)", gzip: configuration.gzip,
                                  maxOccurrences: configuration.limits.maxOccurrences, pages: pages,
                                  build: configuration.executable.isEmpty ? configuration.build : configuration.build + " " + configuration.executable)
    let cache = RenderCache(budgetBytes: configuration.cacheBytes)
    let renderer = FeedRenderer(cache: cache, settings: settings, cursorKey: try await ServerKeys.cursorKey(service), store: store, clock: configuration.clock, logger: logger)
    let purges = PurgeNotifier(baseURL: settings.baseURL, logger: logger, policy: AddressPolicy(allowPrivate: configuration.allowPrivateSources))
    let catalog = FeedCatalog(service: service, store: store, settings: settings, clock: configuration.clock, logger: logger, cache: cache,
                              budgetBytes: configuration.compiledBytes, placedReadFrom: configuration.placedReadFrom,
                              exportFiles: exportFiles(configuration, logger: logger), changed: purges.changed)
    let fetcher = CalendarFetcher(maxBytes: configuration.limits.maxInputBytes, timeout: configuration.fetchTimeout,
                                  allowPrivate: configuration.allowPrivateSources)
    let health = HealthMonitor()
    let metrics = ServerMetrics()
    let secrets = try SecretKeeper(configured: configuration.secretsKeyFile, database: configuration.database, logger: logger)
    try await secrets.resealUnbound(service)
    let loader = FeedLoader(service: CountdownService(store: store, clock: configuration.clock, access: service.access), fetcher: fetcher, directory: configuration.feedsDirectory.map { URL(fileURLWithPath: $0) },
                            logger: logger, activity: ServerActivity(health: health, metrics: metrics), clock: configuration.clock,
                            secrets: secrets, rulesBudget: configuration.rulesBudget)
    events.connect(catalog: catalog, loader: loader)
    await loader.reload()
    await catalog.refresh(force: true)
    health.update(sources: (try? await store.sources()) ?? [])
    let sender = NoticeSender(policy: AddressPolicy(allowPrivate: configuration.allowPrivateSources), userAgent: "tminus/\(configuration.build)",
                              clock: configuration.clock)
    let outbox = NoticeOutbox(backoff: configuration.noticeBackoff, clock: configuration.clock, waitClock: configuration.waitClock, logger: logger) { notice, target throws(NoticeSender.Failed) in
        try await sender.send(notice, to: target)
    }
    let notices = NoticeWatcher(loader: loader, feeds: CompiledNoticeFeeds(catalog: catalog, renderer: renderer), service: service, outbox: outbox,
                                version: configuration.build, clock: configuration.clock, logger: logger)
    let parts = ServerParts(service: service, catalog: catalog, renderer: renderer, settings: settings, clock: configuration.clock, loader: loader,
                            fetcher: fetcher, metrics: metrics, maxBodyBytes: configuration.maxBodyBytes, logger: logger, notices: notices, secrets: secrets)
    // Sessions change no feed: their writes publish nothing (a sign-in or a flash message refreshes no catalog).
    var sessions = StorePersistDriver(service: CountdownService(store: store, clock: configuration.clock), logger: logger)
    sessions.waitClock = configuration.waitClock
    return ServerDependencies(configuration: configuration, store: store, parts: parts, cache: cache, metrics: metrics, health: health, token: token,
                              tokenNotice: AdminTokenNotice(people: service, logger: logger),
                              csrf: CSRFToken(key: try await ServerKeys.csrfKey(service)), sessions: sessions, notices: notices, logger: logger)
}

/// The folder of kept exports as files (`--export-files-mb`): the one given,
/// else beside a SQLite database (on disk, where the store is); nil when off,
/// or on PostgreSQL without a folder given (the temporary folder may be memory).
private func exportFiles(_ configuration: ServerConfiguration, logger: Logger) -> KeptExportFiles? {
    guard configuration.exportFilesBytes > 0 else { return nil }
    let parent: String
    switch (configuration.exportFilesDirectory, configuration.database) {
    case (let given?, _): parent = given
    case (nil, .sqlite(let path)): parent = path + ".exports"
    case (nil, _): return nil
    }
    let files = KeptExportFiles.open(in: parent, budgetBytes: configuration.exportFilesBytes, logger: logger)
    if let files { logger.info("kept exports are read from files", metadata: ["folder": "\(files.directory)", "mb": "\(configuration.exportFilesBytes >> 20)"]) }
    return files
}

/// Every route, over the parts `buildServices` made; starts nothing.
package func buildRouter(_ dependencies: ServerDependencies) -> Router<ServerContext> {
    let (configuration, catalog, loader, health, notices, cache, metrics) = (dependencies.configuration, dependencies.catalog, dependencies.loader,
                                                                              dependencies.health, dependencies.notices, dependencies.cache, dependencies.metrics)
    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: RequestLogMiddleware())
    PublicRoutes(catalog: catalog, renderer: dependencies.renderer, images: ImageRoute(service: dependencies.parts.service, cache: cache),
                 health: { health.status(definitionErrors: loader.definitionErrors, catalogRead: catalog.isRead, noticesFailing: notices.anyFailing) })
        .register(on: router)
    let throttle = SignInThrottle()
    WebApp(parts: dependencies.parts, pages: dependencies.parts.settings.pages, csrf: dependencies.csrf, throttle: throttle,
           trustForwardedFor: configuration.trustForwardedFor, openSignup: configuration.openSignup, proxySignIn: configuration.proxySignIn)
        .register(on: router, sessions: dependencies.sessions)
    AdminRoutes(parts: dependencies.parts, health: { health.snapshot(catalog: catalog, cache: cache, definitionErrors: loader.definitionErrors,
                                                                      undefinedFeeds: loader.undefinedFeeds, notices: notices) })
        .register(on: router, token: dependencies.token, notice: dependencies.tokenNotice)
    CalDAVRoutes(parts: dependencies.parts, throttle: throttle, trusted: configuration.trustedProxies).register(on: router)
    // Prometheus text, behind the admin token (a scrape config sends it as a bearer token).
    router.group("metrics").add(middleware: AdminAuthMiddleware(token: dependencies.token, people: nil)).get { _, _ in
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: metrics.scrape(catalog: catalog, cache: cache, sources: health.sourceStates, databaseOK: !health.databaseHadAProblem))))
    }
    return router
}

/// What runs beside the routes while the server serves: polling the store,
/// listening for other replicas' changes, refreshing sources, sending notices,
/// sweeping sessions, keeping compiled exports in the store, finishing focus
/// periods that ended, placing countdowns in their lists, reloading on SIGHUP,
/// and the shutdown deadline.
package func backgroundServices(_ dependencies: ServerDependencies) -> [any Service] {
    let (configuration, catalog, loader, logger, store) = (dependencies.configuration, dependencies.catalog, dependencies.loader, dependencies.logger,
                                                           dependencies.store)
    var services: [any Service] = [ReloadOnHangupService(loader: loader, catalog: catalog, logger: logger), dependencies.sessions, catalog.exports,
                                    dependencies.tokenNotice]
    if let notices = store.changeNotices { services.append(FeedChangeService(notices: notices, catalog: catalog, logger: logger)) }
    services.append(catalogPoll(dependencies))
    var notices = NoticeService(watcher: dependencies.notices, interval: configuration.noticeInterval)
    notices.waitClock = configuration.waitClock
    services.append(notices)
    for var round in [RoundService.focus(dependencies.parts.service, logger: logger), RoundService.places(dependencies.parts.service, logger: logger)] {
        round.waitClock = configuration.waitClock
        services.append(round)
    }
    if let deadline = configuration.shutdownDeadline { services.append(ShutdownDeadline(limit: deadline, logger: logger)) }
    if configuration.refreshSources {
        var refresh = SourceRefreshService(loader: loader, catalog: catalog, clock: configuration.clock)
        refresh.waitClock = configuration.waitClock
        services.append(refresh)
    }
    return services
}

/// The store's poll: the revisions every second, or every 30 where NOTIFY tells of changes (PostgreSQL).
package func catalogPoll(_ dependencies: ServerDependencies) -> CatalogPollService {
    var poll = CatalogPollService(catalog: dependencies.catalog, health: dependencies.health, store: dependencies.store,
                                  interval: dependencies.configuration.pollInterval)
    if dependencies.store.changeNotices != nil { poll.revisionTicks = 30 }
    poll.waitClock = dependencies.configuration.waitClock
    return poll
}

/// Until anyone has an account, a one-time setup link that makes the first
/// administrator: printed on a terminal, else only announced.
private func offerSetupLink(_ dependencies: ServerDependencies) async throws {
    guard let setup = try await dependencies.parts.service.acting(as: .system).issueSetupLink() else { return }
    let logger = dependencies.logger
    if let show = dependencies.configuration.showSetupLink {
        show("\(dependencies.parts.settings.baseURL)/app/setup/\(setup)")
        logger.notice("nobody has an account yet: a one-time setup link that makes the first administrator was printed on the terminal (or run `tminus password`)")
    } else {
        logger.notice("nobody has an account yet: run `tminus password` on this machine to make the first administrator (the setup link is shown only on a terminal)")
    }
}

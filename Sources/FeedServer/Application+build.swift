import AsyncHTTPClient
import CountdownStore
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The server, built in one place so that `tminus serve` and the tests run the
/// same thing: store → feeds/ definitions → routes → background services.
public func buildApplication(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "tminus")) throws -> some ApplicationProtocol {
    let store = try CountdownStore(path: configuration.databasePath, clock: configuration.clock)
    let token = try AdminToken.setUp(store: store, configuredFile: configuration.adminTokenFile, databasePath: configuration.databasePath, logger: logger)
    let baseURL = configuration.baseURL ?? "http://\(configuration.host):\(configuration.port)"
    let cache = RenderCache()
    let renderer = FeedRenderer(store: store, cache: cache, clock: configuration.clock, baseURL: baseURL, gzip: configuration.gzip)
    let fetcher = CalendarFetcher(client: .shared, maxBytes: store.limits.maxInputBytes, timeout: .seconds(30))
    let loader = FeedLoader(store: store, cache: cache, fetcher: fetcher,
                            directory: configuration.feedsDirectory.map { URL(fileURLWithPath: $0) }, logger: logger)
    loader.reload()

    let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: LogRequestsMiddleware(.info))
    PublicRoutes(store: store, renderer: renderer, loader: loader).register(on: router)
    AdminRoutes(store: store, renderer: renderer, loader: loader, fetcher: fetcher, maxBodyBytes: configuration.maxBodyBytes, logger: logger)
        .register(on: router, token: token)

    var services: [any Service] = [ReloadOnHangupService(loader: loader, logger: logger)]
    if configuration.refreshSources { services.append(SourceRefreshService(loader: loader, clock: configuration.clock)) }
    let feeds = (try? store.feeds().count) ?? 0
    logger.notice("tminus ready", metadata: ["url": "\(baseURL)", "database": "\(configuration.databasePath)", "feeds": "\(feeds)",
                                             "adminTokenFile": "\(token.file)"])
    return Application(router: router,
                       configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tminus"),
                       services: services, logger: logger)
}

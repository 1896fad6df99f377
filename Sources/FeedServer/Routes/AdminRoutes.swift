import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import ICalendar
import Logging

/// The admin API under /api, behind the bearer token. Every write is one store
/// transaction, so a failed request leaves the store as it was.
struct AdminRoutes: Sendable {
    let store: CountdownStore
    let renderer: FeedRenderer
    let loader: FeedLoader
    let fetcher: CalendarFetcher
    let maxBodyBytes: Int
    let logger: Logger

    func register(on router: Router<BasicRequestContext>, token: AdminToken) {
        let api = router.group("api").add(middleware: AdminAuthMiddleware(token: token))
        api.get("feeds") { _, _ in try AdminJSON.encode(try self.store.feeds().map { FeedJSON($0, baseURL: self.renderer.baseURL) }) }
        api.post("feeds") { request, _ in try await self.mapped { try await self.createFeed(request) } }
        api.get("feeds/:slug") { _, context in try self.mapped { try AdminJSON.encode(FeedJSON(try self.stored(context), baseURL: self.renderer.baseURL)) } }
        api.patch("feeds/:slug") { request, context in try await self.mapped { try await self.updateFeed(request, context) } }
        api.delete("feeds/:slug") { _, context in
            try self.mapped {
                try self.store.deleteFeed(slug: context.parameters.get("slug") ?? "")
                return Response(status: .noContent)
            }
        }
        api.get("feeds/:slug/countdowns") { _, context in try self.mapped { try self.listCountdowns(context) } }
        api.post("feeds/:slug/countdowns") { request, context in try await self.mapped { try await self.createCountdown(request, context) } }
        api.get("countdowns/:id") { _, context in try self.mapped { try self.showCountdown(context) } }
        api.patch("countdowns/:id") { request, context in try await self.mapped { try await self.updateCountdown(request, context) } }
        api.delete("countdowns/:id") { _, context in
            try self.mapped {
                try self.store.delete(id: try self.id(context))
                return Response(status: .noContent)
            }
        }
        api.put("countdowns/:id/image") { request, context in try await self.mapped { try await self.uploadImage(request, context) } }
        api.delete("countdowns/:id/image") { _, context in
            try self.mapped {
                let (loaded, slug) = try self.store.countdown(id: try self.id(context))
                var countdown = loaded
                countdown.presentation.image = nil
                guard let feed = try self.store.feed(slug: slug)?.feed else { throw StoreError.feedNotFound(slug) }
                return try AdminJSON.encode(self.snapshot(try self.store.update(countdown), feed))
            }
        }
        api.post("feeds/:slug/import") { request, context in try await self.mapped { try await self.importCalendar(request, context) } }
        api.get("feeds/:slug/export") { request, context in
            try self.mapped {
                let stored = try self.stored(context)
                return try self.renderer.exportedCalendar(stored, pathPrefix: "/api", download: true).response(to: request)
            }
        }
        api.post("feeds/:slug/refresh") { _, context in try await self.mapped { try await self.refresh(context) } }
        api.get("feeds/:slug/tokens") { _, context in try self.mapped { try AdminJSON.encode(try self.store.feedTokens(feed: try self.stored(context).feed.slug)) } }
        api.post("feeds/:slug/tokens") { request, context in try await self.mapped { try await self.createToken(request, context) } }
        api.delete("feeds/:slug/tokens/:id") { _, context in
            try self.mapped {
                try self.store.revokeFeedToken(feed: try self.stored(context).feed.slug, id: try self.id(context))
                return Response(status: .noContent)
            }
        }
    }

    private func mapped(_ body: () throws -> Response) throws -> Response {
        do { return try body() } catch { throw AdminJSON.map(error) }
    }

    private func mapped(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch { throw AdminJSON.map(error) }
    }

    private func stored(_ context: BasicRequestContext) throws -> StoredFeed {
        let slug = context.parameters.get("slug") ?? ""
        guard let stored = try store.feed(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return stored
    }

    private func id(_ context: BasicRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw HTTPError(.badRequest, message: "the id must be a number") }
        return id
    }

    private func createFeed(_ request: Request) async throws -> Response {
        let input = try await AdminJSON.decode(FeedJSON.self, request, limit: 64 << 10)
        var feed = Feed(slug: input.slug)
        try input.apply(to: &feed)
        let stored = try store.createFeed(feed)
        logger.info("feed created", metadata: ["feed": "\(feed.slug)"])
        return try AdminJSON.encode(FeedJSON(stored, baseURL: renderer.baseURL), status: .created)
    }

    private func updateFeed(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        var feed = try stored(context).feed
        let input = try await AdminJSON.decode(FeedJSON.self, request, limit: 64 << 10)
        guard input.slug == feed.slug else { throw HTTPError(.unprocessableContent, message: "a feed's slug cannot change (it is in every subscriber's URL)") }
        try input.apply(to: &feed)
        return try AdminJSON.encode(FeedJSON(try store.saveFeed(feed), baseURL: renderer.baseURL))
    }

    private func calculator(_ feed: Feed) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: renderer.clock(), zone: Zone.named(feed.timeZone) ?? .utc, maxOccurrences: store.limits.maxOccurrences)
    }

    private func listCountdowns(_ context: BasicRequestContext) throws -> Response {
        let feed = try stored(context).feed
        return try AdminJSON.encode(FeedSnapshot(feed: feed, countdowns: try store.countdowns(inFeed: feed.slug), calculator: calculator(feed),
                                                 imageURL: { renderer.imageURL($0) }))
    }

    private func snapshot(_ countdown: Countdown, _ feed: Feed) -> CountdownSnapshot {
        CountdownSnapshot(countdown: countdown, remaining: calculator(feed).remaining(for: countdown), imageURL: { renderer.imageURL($0) })
    }

    private func createCountdown(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let feed = try stored(context).feed
        let draft = try await AdminJSON.decode(CountdownDraft.self, request, limit: 64 << 10)
        var generator = SystemRandomNumberGenerator()
        let countdown = try draft.makeCountdown(uid: StableUID.generate(using: &generator), feedZone: feed.timeZone)
        let saved = try store.add(countdown, toFeed: feed.slug)
        return try AdminJSON.encode(snapshot(saved, feed), status: .created)
    }

    private func showCountdown(_ context: BasicRequestContext) throws -> Response {
        let (countdown, slug) = try store.countdown(id: try id(context))
        guard let feed = try store.feed(slug: slug)?.feed else { throw StoreError.feedNotFound(slug) }
        return try AdminJSON.encode(snapshot(countdown, feed))
    }

    private func updateCountdown(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (loaded, slug) = try store.countdown(id: try id(context))
        guard let feed = try store.feed(slug: slug)?.feed else { throw StoreError.feedNotFound(slug) }
        let draft = try await AdminJSON.decode(CountdownDraft.self, request, limit: 64 << 10)
        var countdown = loaded
        try draft.apply(to: &countdown, feedZone: feed.timeZone)
        return try AdminJSON.encode(snapshot(try store.update(countdown), feed))
    }

    /// The body is the image itself (png, jpeg, gif, webp or svg); its bytes decide the type.
    private func uploadImage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (loaded, slug) = try store.countdown(id: try id(context))
        guard let feed = try store.feed(slug: slug)?.feed else { throw StoreError.feedNotFound(slug) }
        let bytes = Data(try await AdminJSON.body(request, limit: store.limits.maxImageBytes).readableBytesView)
        guard let type = CountdownStore.imageType(of: bytes) else {
            throw HTTPError(.unsupportedMediaType, message: "the body is not a png, jpeg, gif, webp or svg image")
        }
        var countdown = loaded
        countdown.presentation.image = try store.storeImage(bytes, mimeType: type)
        return try AdminJSON.encode(snapshot(try store.update(countdown), feed))
    }

    struct ImportResult: Encodable {
        var added, updated, unchanged, removed: Int
        var skipped, diagnostics: [String]
    }

    /// `text/calendar` body, or JSON `{"url": …}` fetched with AsyncHTTPClient.
    private func importCalendar(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let slug = try stored(context).feed.slug
        let query = request.uri.queryParameters
        let strict = query.get("strict") == "true"
        let type = request.headers[.contentType]?.lowercased() ?? ""
        let bytes: [UInt8]
        var source: String?
        if type.hasPrefix("application/json") {
            struct URLImport: Decodable { var url: String }
            let input = try await AdminJSON.decode(URLImport.self, request, limit: 16 << 10)
            guard let url = URL(string: input.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw HTTPError(.badRequest, message: "url must be an http(s) URL")
            }
            do {
                guard case .fetched(let fetched, _, _) = try await fetcher.fetch(input.url) else { throw HTTPError(.badGateway, message: "\(input.url) sent nothing") }
                bytes = fetched
            } catch let error as CalendarFetcher.Failure {
                throw HTTPError(.badGateway, message: error.description)
            }
            source = input.url
        } else if type.hasPrefix("text/calendar") || type.isEmpty || type.hasPrefix("application/octet-stream") {
            let buffer = try await AdminJSON.body(request, limit: maxBodyBytes)
            bytes = Array(buffer.readableBytesView)
        } else {
            throw HTTPError(.unsupportedMediaType, message: "send text/calendar, or application/json with {\"url\": …}")
        }
        let report = try store.importCalendar(bytes, intoFeed: slug, options: ImportOptions(strict: strict, source: source, createFeed: false))
        logger.info("import", metadata: ["feed": "\(slug)", "result": "\(report)"])
        return try AdminJSON.encode(ImportResult(added: report.added, updated: report.updated, unchanged: report.unchanged, removed: report.removed,
                                                 skipped: report.skipped, diagnostics: report.diagnostics))
    }

    private func refresh(_ context: BasicRequestContext) async throws -> Response {
        let slug = try stored(context).feed.slug
        let sources = loader.urlSources.filter { $0.feed == slug }
        for (feed, source) in sources { await loader.refresh(feed: feed, source: source) }
        return try AdminJSON.encode(try store.sources().filter { $0.feed == slug })
    }

    private func createToken(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let slug = try stored(context).feed.slug
        struct Label: Decodable { var label: String? }
        let buffer = try await AdminJSON.body(request, limit: 4 << 10)
        let label = (try? JSONDecoder().decode(Label.self, from: Data(buffer.readableBytesView)))?.label ?? "token"
        let (secret, info) = try store.createFeedToken(feed: slug, label: label)
        let links = FeedPage.links(baseURL: renderer.baseURL, path: "/t/\(secret)/feeds/\(slug)")
        struct Created: Encodable { var token: FeedToken; var secret: String; var ics: String; var webcal: String; var countdown: String; var html: String }
        return try AdminJSON.encode(Created(token: info, secret: secret, ics: links.https, webcal: links.webcal, countdown: links.countdown,
                                            html: renderer.baseURL + "/t/\(secret)/feeds/\(slug)"), status: .created)
    }
}

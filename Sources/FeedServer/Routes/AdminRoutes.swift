import Catalog
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import ICalendar
import Logging
import Services
import Subscriptions

/// The admin API under /api, behind the bearer token. Every write is one store
/// transaction, so a failed request leaves the store as it was.
package struct AdminRoutes: PartsRoutes, Sendable {
    package let parts: ServerParts
    /// The detailed health that `/healthz` no longer shows to everyone.
    package let health: @Sendable () -> Health

    package init(parts: ServerParts, health: @escaping @Sendable () -> Health) {
        self.parts = parts
        self.health = health
    }

    /// Its middleware lets only the admin token's bearer in.
    package static let principal: Principal = .adminToken

    /// `notice` runs beside the routes (a background service) and is told when the admin token is used.
    package func register(on router: Router<ServerContext>, token: AdminToken, notice: AdminTokenNotice? = nil) {
        OpenAPIDocument.register(on: router)
        let api = router.group("api").add(middleware: AdminAuthMiddleware(token: token, people: parts.service, notice: notice))
        api.get("health") { request, _ in
            try await self.service.authorize(.administer)
            // Measured first, so that the cache figures include the renders measuring caused.
            // The feeds in memory, so that health compiles nothing; `?feed=` measures that one (compiling it).
            var outputs: [OutputBudget] = []
            var measured = self.catalog.compiledNow
            if let slug = request.uri.queryParameters.get("feed") {
                guard Feed.isValidSlug(slug), let compiled = await self.catalog.feed(slug: String(slug)) else { throw StoreError.feedNotFound(String(slug)) }
                measured = [compiled]
            }
            for compiled in measured { outputs.append(try await OutputBudget.measure(compiled, renderer: self.renderer)) }
            var health = self.health()
            health.outputs = outputs
            return health
        }
        registerSpaces(on: api)
        registerFocus(on: api)
        registerAgenda(on: api)
        registerLinks(on: api)
        api.get("feeds") { _, _ in
            try AdminJSON.encode(try await service.feeds().map { FeedJSON($0, baseURL: self.settings.baseURL) })
        }
        api.post("feeds") { request, _ in try await self.createFeed(request) }
        api.get("feeds/{slug}") { _, context in try AdminJSON.encode(FeedJSON(try await self.stored(context), baseURL: self.settings.baseURL)) }
        api.patch("feeds/{slug}") { request, context in try await self.updateFeed(request, context) }
        api.delete("feeds/{slug}") { _, context in
            let slug = context.parameters.get("slug") ?? ""
            try await self.service.deleteFeed(slug: slug)
            return Response(status: .noContent)
        }
        api.get("feeds/{slug}/countdowns") { _, context in try await self.listCountdowns(context) }
        api.post("feeds/{slug}/countdowns") { request, context in try await self.createCountdown(request, context) }
        api.get("countdowns/{id}") { _, context in try await self.showCountdown(context) }
        api.patch("countdowns/{id}") { request, context in try await self.updateCountdown(request, context) }
        api.delete("countdowns/{id}") { _, context in
            let id = try self.id(context)
            try await self.service.delete(id: id)
            return Response(status: .noContent)
        }
        api.put("countdowns/{id}/image") { request, context in try await self.uploadImage(request, context) }
        api.delete("countdowns/{id}/image") { _, context in
            let (loaded, feed) = try await self.countdown(context)
            return try AdminJSON.encode(self.snapshot(try await self.service.replaceImage(ofCountdown: try loaded.savedID(), with: nil), feed))
        }
        api.post("feeds/{slug}/import") { request, context in try await self.importCalendar(request, context) }
        api.get("feeds/{slug}/export") { request, context in
            let slug = try await self.stored(context).feed.slug
            guard let compiled = await self.catalog.current(slug: slug) else { throw StoreError.feedNotFound(slug) }
            var download = compiled.exported
            download.contentDisposition = "attachment; filename=\"\(slug).ics\""
            download.cacheControl = "private, no-store"
            return download
        }
        api.post("feeds/{slug}/refresh") { _, context in try await self.refresh(context) }
        // What the feed's rules do to each event of its sources, read now (`tminus rules test`); nothing is imported.
        api.get("feeds/{slug}/rules") { _, context in
            let slug = try await self.stored(context).feed.slug
            do {
                return try AdminJSON.encode(try await self.sources.previewRules(feed: slug))
            } catch let failure as RulesDryRun.Failure {
                throw HTTPError(.unprocessableContent, message: failure.description)
            } catch SourceUseCases.Refusal.previewedTooOften(let feed, let wait) {
                throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)],
                                message: SourceUseCases.Refusal.previewedTooOften(feed: feed, wait: wait).description)
            }
        }
        registerSources(on: api)
        api.get("feeds/{slug}/tokens") { _, context in
            let slug = try await self.stored(context).feed.slug
            return try AdminJSON.encode(try await service.feedTokens(feed: slug))
        }
        api.post("feeds/{slug}/tokens") { request, context in try await self.createToken(request, context) }
        api.delete("feeds/{slug}/tokens/{id}") { _, context in
            let slug = try await self.stored(context).feed.slug
            let id = try self.id(context)
            try await self.service.revokeFeedToken(feed: slug, id: id)
            return Response(status: .noContent)
        }
    }

    package func stored(_ context: ServerContext) async throws -> StoredFeed {
        let slug = context.parameters.get("slug") ?? ""
        guard let stored = try await service.feed(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return stored
    }

    /// A countdown by `{id}`, and the feed it is in.
    private func countdown(_ context: ServerContext) async throws -> (Countdown, Feed) {
        let id = try self.id(context)
        let (countdown, slug) = try await service.countdown(id: id)
        guard let feed = try await service.feed(slug: slug)?.feed else { throw StoreError.feedNotFound(slug) }
        return (countdown, feed)
    }

    private func id(_ context: ServerContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.badRequest, message: "the id must be a number") }
        return id
    }

    private func createFeed(_ request: Request) async throws -> Response {
        let input = try await AdminJSON.decode(FeedJSON.self, request, limit: 64 << 10)
        var feed = Feed(slug: input.slug)
        warnAboutOldSpellings(input.settings)
        try input.settings.apply(to: &feed)
        let stored = try await service.createFeed(feed, inSpace: input.space)
        self.logger.info("feed created", metadata: ["feed": "\(feed.slug)"])
        return try AdminJSON.encode(FeedJSON(stored, baseURL: self.settings.baseURL), status: .created)
    }

    private func updateFeed(_ request: Request, _ context: ServerContext) async throws -> Response {
        var feed = try await stored(context).feed
        let input = try await AdminJSON.decode(FeedJSON.self, request, limit: 64 << 10)
        guard input.slug == feed.slug else { throw HTTPError(.unprocessableContent, message: "a feed's slug cannot change (it is in every subscriber's URL)") }
        warnAboutOldSpellings(input.settings)
        try input.settings.apply(to: &feed)
        return try AdminJSON.encode(FeedJSON(try await service.saveFeed(feed), baseURL: self.settings.baseURL))
    }

    private func warnAboutOldSpellings(_ settings: FeedSettingsDocument) {
        for key in settings.deprecatedKeys {
            self.logger.warning("admin API: '\(key)' is an old spelling; send 'timeZone'")
        }
    }

    private func calculator(_ feed: Feed) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: self.clock(), zone: feed.zone, maxOccurrences: self.settings.maxOccurrences)
    }

    private func listCountdowns(_ context: ServerContext) async throws -> Response {
        let feed = try await stored(context).feed
        let countdowns = try await service.countdowns(inFeed: feed.slug)
        return try AdminJSON.encode(FeedSnapshot(feed: feed, countdowns: countdowns, calculator: calculator(feed), imageURL: { self.settings.imageURL($0) }))
    }

    /// A countdown as the admin API shows it: as the feed's JSON does, and who made and changed it.
    private func snapshot(_ countdown: Countdown, _ feed: Feed) -> CountdownSnapshot {
        var snapshot = CountdownSnapshot(countdown: countdown, remaining: calculator(feed).remaining(for: countdown), imageURL: { self.settings.imageURL($0) })
        snapshot.createdBy = countdown.createdBy
        snapshot.changedBy = countdown.changedBy
        return snapshot
    }

    private func createCountdown(_ request: Request, _ context: ServerContext) async throws -> Response {
        let feed = try await stored(context).feed
        let draft = try await AdminJSON.decode(CountdownDraft.self, request, limit: 64 << 10)
        let countdown = try draft.countdown(editing: nil, feedZone: feed.timeZone)
        let saved = try await service.add(countdown, toFeed: feed.slug)
        return try AdminJSON.encode(snapshot(saved, feed), status: .created)
    }

    private func showCountdown(_ context: ServerContext) async throws -> Response {
        let (countdown, feed) = try await self.countdown(context)
        return try AdminJSON.encode(snapshot(countdown, feed))
    }

    private func updateCountdown(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (loaded, feed) = try await countdown(context)
        let draft = try await AdminJSON.decode(CountdownDraft.self, request, limit: 64 << 10)
        let edited = try draft.countdown(editing: loaded, feedZone: feed.timeZone)
        return try AdminJSON.encode(snapshot(try await service.update(edited), feed))
    }

    /// The body is the image itself (png, jpeg, gif, webp or svg); its bytes decide the type.
    private func uploadImage(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (loaded, feed) = try await countdown(context)
        let bytes = Data(try await AdminJSON.body(request, limit: service.limits.maxImageBytes).readableBytesView)
        let image: ImageUpload
        do { image = try ImageUpload(sniffing: bytes, limits: service.limits) } catch let error as ImageUpload.NotAnImage {
            throw HTTPError(.unsupportedMediaType, message: "the body is \(error)")
        }
        let saved = try await service.replaceImage(ofCountdown: try loaded.savedID(), with: image)
        return try AdminJSON.encode(snapshot(saved, feed))
    }

    package struct ImportResult: Encodable {
        package var added, updated, unchanged, removed: Int
        package var skipped, diagnostics: [String]
    }

    /// `text/calendar` body, or JSON `{"url": …}` fetched with AsyncHTTPClient.
    private func importCalendar(_ request: Request, _ context: ServerContext) async throws -> Response {
        let slug = try await stored(context).feed.slug
        let query = request.uri.queryParameters
        let strict = query.get("strict") == "true"
        let type = request.headers[.contentType]?.lowercased() ?? ""
        let report: ImportReport
        do {
            if type.hasPrefix("application/json") {
                struct URLImport: Decodable { var url: String }
                let input = try await AdminJSON.decode(URLImport.self, request, limit: 16 << 10)
                report = try await self.sources.importAddress(.init(url: input.url), intoFeed: slug, rules: nil, strict: strict, keep: false)
            } else if type.hasPrefix("text/calendar") || type.isEmpty || type.hasPrefix("application/octet-stream") {
                let buffer = try await AdminJSON.body(request, limit: self.maxBodyBytes)
                report = try await service.importCalendar(Array(buffer.readableBytesView), intoFeed: slug,
                                                          options: ImportOptions(strict: strict, source: nil, createFeed: false))
            } else {
                throw HTTPError(.unsupportedMediaType, message: "send text/calendar, or application/json with {\"url\": …}")
            }
        } catch {
            self.metrics.imported(via: .api, ok: false)
            throw error
        }
        self.metrics.imported(via: .api, ok: true)
        self.logger.info("import", metadata: ["feed": "\(slug)", "result": "\(report)"])
        return try AdminJSON.encode(ImportResult(added: report.added, updated: report.updated, unchanged: report.unchanged, removed: report.removed,
                                                 skipped: report.skipped, diagnostics: report.diagnostics))
    }

    private func refresh(_ context: ServerContext) async throws -> Response {
        let slug = try await stored(context).feed.slug
        try await self.sources.refresh(feed: slug)
        return try AdminJSON.encode(try await service.sources(feed: slug))
    }

    private func createToken(_ request: Request, _ context: ServerContext) async throws -> Response {
        let slug = try await stored(context).feed.slug
        // An empty body makes a full link labelled "token"; a body is checked.
        struct NewToken: Decodable { var label: String?; var visibility: String? }
        let buffer = try await AdminJSON.body(request, limit: 4 << 10)
        var asked = NewToken()
        if buffer.readableBytesView.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            asked = try AdminJSON.decode(NewToken.self, from: buffer)
        }
        let label = String(SafeText.clean(asked.label ?? "token").prefix(80))
        let visibility = try Visibility(naming: asked.visibility)
        let (secret, info) = try await service.createFeedToken(feed: slug, label: label, visibility: visibility)
        let links = FeedPage.links(baseURL: self.settings.baseURL, path: "/t/\(secret)/feeds/\(slug)")
        struct Created: Encodable { var token: FeedToken; var secret: String; var ics: String; var webcal: String; var countdown: String; var html: String }
        return try AdminJSON.encode(Created(token: info, secret: secret, ics: links.https, webcal: links.webcal, countdown: links.countdown,
                                            html: self.settings.baseURL + "/t/\(secret)/feeds/\(slug)"), status: .created)
    }
}

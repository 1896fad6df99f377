import Countdowns
import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar

/// Everything a calendar client, a browser or a dashboard reads. Each GET also
/// answers HEAD (the router generates it). Private feeds are 404 here and are
/// served under `/t/{token}/…` instead.
struct PublicRoutes: Sendable {
    let store: CountdownStore
    let renderer: FeedRenderer
    let loader: FeedLoader

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try self.index(request) }
        router.get("/healthz") { _, _ in try self.health() }
        router.get("/assets/tminus.css") { request, _ in Self.asset(Assets.css, type: "text/css; charset=utf-8", request) }
        router.get("/assets/tminus.js") { request, _ in Self.asset(Assets.js, type: "text/javascript; charset=utf-8", request) }
        router.get("/images/:sha") { request, context in try self.image(request, context) }
        for prefix in ["", "/t/:token"] {
            router.get("\(prefix)/feeds/:slug") { request, context in try self.feedFile(request, context) }
            router.get("\(prefix)/feeds/:slug/countdown.ics") { request, context in
                let (stored, _) = try self.feed(context)
                return try self.renderer.countdownCalendar(stored).response(to: request)
            }
            router.get("\(prefix)/feeds/:slug/:card") { request, context in try self.card(request, context) }
        }
    }

    /// The feed a request may see: public by slug, private only with a live token for it.
    private func feed(_ context: BasicRequestContext, slug explicit: String? = nil) throws -> (StoredFeed, pathPrefix: String) {
        let slug = explicit ?? context.parameters.get("slug") ?? ""
        let notFound = HTTPError(.notFound, message: "no feed '\(slug)'")
        guard Feed.isValidSlug(slug), let stored = try store.feed(slug: slug) else { throw notFound }
        if let token = context.parameters.get("token") {
            guard try store.feedSlug(forToken: token) == slug else { throw notFound }
            return (stored, "/t/\(token)/feeds/\(slug)")
        }
        guard stored.feed.isPublic else { throw notFound }
        return (stored, "/feeds/\(slug)")
    }

    /// `/feeds/{slug}.ics`, `/feeds/{slug}.json` or the HTML page `/feeds/{slug}`.
    private func feedFile(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let name = context.parameters.get("slug") ?? ""
        for (suffix, kind) in [(".ics", "ics"), (".json", "json")] where name.hasSuffix(suffix) {
            let (stored, prefix) = try feed(context, slug: String(name.dropLast(suffix.count)))
            if kind == "ics" { return try renderer.exportedCalendar(stored, pathPrefix: prefix).response(to: request) }
            return try renderer.json(stored, query: try jsonQuery(request, stored.feed)).response(to: request)
        }
        let (stored, prefix) = try feed(context, slug: name)
        return try renderer.page(stored, zone: try zone(request, stored.feed), pathPrefix: prefix)
            .response(to: request, extraHeaders: Self.pageHeaders)
    }

    private func card(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let file = context.parameters.get("card") ?? ""
        guard file.hasSuffix(".svg"), let id = Int64(file.dropLast(4)) else { throw HTTPError(.notFound, message: "cards are /feeds/{slug}/{id}.svg") }
        let (stored, _) = try feed(context)
        guard let card = try renderer.card(stored, id: id, zone: try zone(request, stored.feed)) else {
            throw HTTPError(.notFound, message: "feed '\(stored.feed.slug)' has no countdown \(id)")
        }
        return card.response(to: request)
    }

    private func zone(_ request: Request, _ feed: Feed) throws -> Zone {
        guard let name = request.uri.queryParameters.get("tz") else { return Zone.named(feed.timeZone) ?? .utc }
        guard let zone = Zone.named(name) else { throw HTTPError(.badRequest, message: "tz '\(name)' is not a known time zone (use an Olson name)") }
        return zone
    }

    private func jsonQuery(_ request: Request, _ feed: Feed) throws -> FeedRenderer.JSONQuery {
        let query = request.uri.queryParameters
        var unit: DisplayUnit?
        if let raw = query.get("unit") {
            guard let parsed = DisplayUnit(rawValue: raw) else { throw HTTPError(.badRequest, message: "unit must be one of \(DisplayUnit.allCases.map(\.rawValue).joined(separator: ", "))") }
            unit = parsed
        }
        var limit: Int?
        if let raw = query.get("limit") {
            guard let parsed = Int(raw), parsed > 0 else { throw HTTPError(.badRequest, message: "limit must be a positive integer") }
            limit = min(parsed, 10_000)
        }
        var sort = FeedSnapshot.Sort.remaining
        if let raw = query.get("sort") {
            guard let parsed = FeedSnapshot.Sort(rawValue: raw) else { throw HTTPError(.badRequest, message: "sort must be remaining or title") }
            sort = parsed
        }
        return .init(zone: try zone(request, feed), unit: unit, limit: limit, category: query.get("category"), sort: sort)
    }

    private func index(_ request: Request) throws -> Response {
        let feeds = try store.feeds().filter(\.feed.isPublic)
        let html = IndexPage.render(feeds: feeds.map { ($0.feed, $0.countdownCount, FeedPage.links(baseURL: renderer.baseURL, path: "/feeds/\($0.feed.slug)")) })
        let lastModified = feeds.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0)
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8", lastModified: lastModified,
                              cacheControl: "public, max-age=60").response(to: request, extraHeaders: Self.pageHeaders)
    }

    private func image(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let sha = context.parameters.get("sha") ?? ""
        guard sha.count == 64, sha.allSatisfy(\.isHexDigit), let (bytes, type) = try store.image(CountdownStore.imageScheme + sha) else {
            throw HTTPError(.notFound, message: "no such image")
        }
        return Representation(bytes: [UInt8](bytes), contentType: type, lastModified: Date(timeIntervalSince1970: 0),
                              cacheControl: "public, max-age=31536000, immutable").response(to: request, extraHeaders: [.xContentTypeOptions: "nosniff"])
    }

    private func health() throws -> Response {
        let sources = try store.sources()
        let failing = sources.filter { $0.lastError != nil }
        let body: [String: Any] = [
            "status": failing.isEmpty && loader.definitionErrors.isEmpty ? "ok" : "degraded",
            "database": try store.integrityCheckQuick(),
            "feeds": try store.feeds().count,
            "sources": sources.map { source -> [String: Any] in
                var entry: [String: Any] = ["feed": source.feed, "source": source.location, "ok": source.lastError == nil]
                if let error = source.lastError { entry["error"] = error }
                if let success = source.lastSuccessAt { entry["lastSuccess"] = HTTPDate.format(success) }
                return entry
            },
            "definitionErrors": loader.definitionErrors,
            "renderCache": ["hits": renderer.cache.statistics.hits, "misses": renderer.cache.statistics.misses],
        ]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func asset(_ text: String, type: String, _ request: Request) -> Response {
        Representation(bytes: Array(text.utf8), contentType: type, lastModified: Date(timeIntervalSince1970: 1_790_000_000),
                       cacheControl: "public, max-age=3600").response(to: request, extraHeaders: [.xContentTypeOptions: "nosniff"])
    }

    /// Scripts only from this origin; inline styles are allowed for the per-card colours.
    static let pageHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]
}

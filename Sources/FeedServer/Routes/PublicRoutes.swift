import Catalog
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import ICalendar
import Services

/// Everything a calendar client, a browser or a dashboard reads, answered from
/// the compiled feeds in memory. Each GET also answers HEAD (the router
/// generates it). Private feeds are 404 here and are served under
/// `/t/{token}/…` instead. Each link reads the compilation its visibility
/// allows (`Redaction`): a public link never sees CLASS:PRIVATE events.
package struct PublicRoutes: Sendable {
    package let catalog: FeedCatalog
    package let renderer: FeedRenderer
    package let images: ImageRoute
    package let health: @Sendable () -> PublicHealth

    package init(catalog: FeedCatalog, renderer: FeedRenderer, images: ImageRoute, health: @escaping @Sendable () -> PublicHealth) {
        self.catalog = catalog
        self.renderer = renderer
        self.images = images
        self.health = health
    }

    package func register(on router: Router<ServerContext>) {
        router.get("/") { request, _ in self.catalog.index(in: try ViewerLanguage.resolve(request, feedLanguage: nil, negotiating: true)) }
        router.get("/healthz") { _, _ in self.health() }
        router.get("/assets/tminus.css") { _, _ in Self.css }
        router.get("/assets/tminus.js") { _, _ in Self.js }
        router.get("/assets/icon.svg") { _, _ in Self.icon }
        router.get("/images/{sha}") { _, context in try await self.images.image(context) }
        for prefix in ["/feeds", "/t/{token}/feeds"] {
            router.get("\(prefix)/{slug}.ics") { request, context in
                let tuning = try LinkTuning(request)
                let rscale: OtherCalendarDates.Form
                switch request.uri.queryParameters.get("rscale") {
                case nil, "dates": rscale = .dates
                case "rule": rscale = .ruleAndDates
                default: throw HTTPError(.badRequest, message: "rscale must be dates (the default) or rule")
                }
                if !tuning.isEmpty {
                    return self.served(try await self.renderer.tunedExport(try await self.feed(context).compiled, tuning: tuning, rscale: rscale), context)
                }
                if rscale == .dates { return self.served(try await self.exported(context), context) }
                return self.served(try await self.renderer.exportedWithRule(try await self.feed(context).compiled), context)
            }
            router.get("\(prefix)/{slug}.json") { request, context in
                if let first = try await self.firstJSON(request, context) { return self.served(first, context) }
                let compiled = try await self.feed(context).compiled
                return self.served(try await self.renderer.json(compiled, query: try FeedQuery(request, compiled, cursorKey: self.renderer.cursorKey)), context)
            }
            router.get("\(prefix)/{slug}") { request, context in
                if let first = try await self.firstPage(request, context) { return self.served(first, context) }
                let (compiled, path) = try await self.feed(context)
                let zone = try ViewerZone.fromQuery(request.uri.queryParameters.get("tz"), default: compiled.feed.zone)
                let language = try ViewerLanguage.resolve(request, feed: compiled.feed, negotiating: true)
                let cursor = try FeedCursor(request, compiled, fingerprint: FeedQuery.fingerprint(zone: zone, sort: compiled.feed.sort, language: language),
                                             key: self.renderer.cursorKey)
                return self.served(try await self.renderer.page(compiled, zone: zone, path: path, language: language, cursor: cursor), context)
            }
            router.get("\(prefix)/{slug}/countdown.ics") { request, context in
                if let batched = try await self.batchedCountdownCalendar(request, context) { return self.served(batched, context) }
                let compiled = try await self.feed(context).compiled
                let language = try ViewerLanguage.resolve(request, feed: compiled.feed, negotiating: false)
                return self.served(try await self.renderer.countdownCalendar(compiled, language: language, tuning: try LinkTuning(request)), context)
            }
            router.get("\(prefix)/{slug}/{id}.svg") { request, context in
                let (compiled, _) = try await self.feed(context)
                guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound, message: "cards are /feeds/{slug}/{id}.svg") }
                let zone = try ViewerZone.fromQuery(request.uri.queryParameters.get("tz"), default: compiled.feed.zone)
                let language = try ViewerLanguage.resolve(request, feed: compiled.feed, negotiating: true)
                guard let card = try await self.renderer.card(compiled, id: id, zone: zone, language: language) else {
                    throw HTTPError(.notFound, message: "feed '\(compiled.slug)' has no countdown \(id)")
                }
                return self.served(card, context)
            }
        }
    }

    /// What a feed route answers: through a token link, for that holder only;
    /// otherwise (a public feed) with the key a CDN purges the feed by, which
    /// a feed's outputs are made with (`Representation.forFeed`).
    private func served(_ representation: Representation, _ context: ServerContext) -> Representation {
        if context.parameters.get("token") != nil { return representation.privately() }
        return representation.forFeed(context.parameters.get("slug") ?? "")
    }

    /// The exported calendar a request may see, compiled or not (`FeedCatalog.exported`).
    private func exported(_ context: ServerContext) async throws -> Representation {
        let (slug, redaction) = try view(context)
        guard let exported = try await catalog.exported(slug: slug, as: redaction) else { throw HTTPError(.notFound, message: "no feed '\(slug)'") }
        return exported
    }

    /// The feed and view a request may see, as the catalog and `Authorization`
    /// decide for the link's principal (anyone, or a token's holder): a 404
    /// for a feed it may not read, as for one that does not exist. Compiles nothing.
    private func view(_ context: ServerContext) throws -> (slug: String, redaction: Redaction) {
        let slug = context.parameters.get("slug") ?? ""
        guard Feed.isValidSlug(slug), let principal = catalog.principal(link: context.parameters.get("token")),
              let redaction = catalog.view(slug: slug, for: principal) else { throw HTTPError(.notFound, message: "no feed '\(slug)'") }
        return (slug, redaction)
    }

    /// A large feed's first `.json` page while it is not compiled, read by
    /// place (`FeedRenderer.firstJSON`, issue #41); nil when the compiled
    /// feed answers (in memory, small, paged, or the rows did not settle it).
    private func firstJSON(_ request: Request, _ context: ServerContext) async throws -> Representation? {
        guard let (stored, identity, feed) = try uncompiled(request, context) else { return nil }
        let query = try FeedQuery(request, feed: feed, countdownCount: stored.countdownCount)
        return await byPlace(feed.slug) { try await renderer.firstJSON(stored, identity: identity, query: query) }
    }

    /// The same for the feed's HTML page (`FeedRenderer.firstPage`).
    private func firstPage(_ request: Request, _ context: ServerContext) async throws -> Representation? {
        guard let (stored, identity, feed) = try uncompiled(request, context) else { return nil }
        let zone = try ViewerZone.fromQuery(request.uri.queryParameters.get("tz"), default: feed.zone)
        let language = try ViewerLanguage.resolve(request, feed: feed, negotiating: true)
        let path = context.parameters.get("token").map { "/t/\($0)/feeds/\(feed.slug)" } ?? "/feeds/\(feed.slug)"
        return await byPlace(feed.slug) { try await renderer.firstPage(stored, identity: identity, zone: zone, path: path, language: language) }
    }

    /// A large feed's countdown calendar while it is not compiled, made from
    /// its rows in batches (`FeedRenderer.batchedCountdownCalendar`); nil
    /// when the link tunes it or the compiled feed answers (in memory, or an
    /// older compilation is there to build on).
    private func batchedCountdownCalendar(_ request: Request, _ context: ServerContext) async throws -> Representation? {
        guard try LinkTuning(request).isEmpty, let (stored, identity, feed) = try uncompiled(request, context), !catalog.canRecompile(slug: feed.slug) else {
            return nil
        }
        let language = try ViewerLanguage.resolve(request, feed: feed, negotiating: false)
        return await byPlace(feed.slug) { try await renderer.batchedCountdownCalendar(stored, identity: identity, language: language) }
    }

    /// A feed the request may see, large and not compiled, as the viewer sees it; nil on a page after the first.
    private func uncompiled(_ request: Request, _ context: ServerContext) throws -> (StoredFeed, CompiledFeed.Identity, Feed)? {
        guard request.uri.queryParameters.get("cursor") == nil else { return nil }
        let (slug, redaction) = try view(context)
        guard let (stored, identity) = catalog.uncompiled(slug: slug, as: redaction) else { return nil }
        return (stored, identity, redaction.apply(to: stored.feed))
    }

    /// A first page read by place (or a calendar made in batches), or nil when
    /// the read fails (logged: the compiled feed answers instead).
    private func byPlace(_ slug: String, _ read: () async throws -> Representation?) async -> Representation? {
        do { return try await read() } catch {
            catalog.logger.warning("cannot read a large feed without compiling it; compiling the feed", metadata: ["feed": "\(slug)", "error": "\(error)"])
            return nil
        }
    }

    /// The feed a request may see: public by slug, private only with a live
    /// token for it; and the path its page links from.
    private func feed(_ context: ServerContext) async throws -> (compiled: CompiledFeed, path: String) {
        let (slug, redaction) = try view(context)
        // A feed has a public view only while it is public: the catalog answers nil for a private one.
        guard let compiled = try await catalog.readable(slug: slug, as: redaction) else { throw HTTPError(.notFound, message: "no feed '\(slug)'") }
        return (compiled, context.parameters.get("token").map { "/t/\($0)/feeds/\(slug)" } ?? "/feeds/\(slug)")
    }

    package static let css = asset(Assets.css, type: "text/css; charset=utf-8")
    package static let js = asset(Assets.js, type: "text/javascript; charset=utf-8")
    package static let icon = asset(Assets.icon, type: "image/svg+xml")

    package static func asset(_ text: String, type: String) -> Representation {
        Representation(bytes: Array(text.utf8), contentType: type, lastModified: Date(timeIntervalSince1970: 1_790_000_000),
                       cacheControl: "public, max-age=3600", extraHeaders: PageHeaders.asset)
    }
}

/// `/images/{sha256}`: uploaded images, immutable, so each is read from the
/// store once and then kept in the render cache (within its budget).
package struct ImageRoute: Sendable {
    package let service: CountdownService
    package let cache: RenderCache

    package init(service: CountdownService, cache: RenderCache) {
        self.service = service
        self.cache = cache
    }

    package func image(_ context: ServerContext) async throws -> Representation {
        let sha = context.parameters.get("sha") ?? ""
        let notFound = HTTPError(.notFound, message: "no such image")
        guard sha.utf8.count == 64, sha.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { throw notFound }
        return try await cache.value(for: .image(sha: sha), load: { [service] in
            guard let (bytes, type) = try await service.image(StoredImage.scheme + sha) else { throw notFound }
            return Representation(bytes: [UInt8](bytes), contentType: type, lastModified: Date(timeIntervalSince1970: 0),
                                  cacheControl: "public, max-age=31536000, immutable", extraHeaders: PageHeaders.image)
        })
    }
}

import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import Rules
import Services
import Subscriptions

/// `/api/feeds/{slug}/sources`: the addresses a feed keeps fetching, as the
/// web app's "keep it up to date" adds them, with their logins (write-only)
/// and their rules (`SubscriptionRules`, the YAML a source has in a feed
/// file). Sources of a feed file are listed too, but they and their rules
/// are changed in the file. A source is named by its address in the body
/// (`url`), or in the query for DELETE, because an address does not fit a path.
extension AdminRoutes {
    package struct SourceJSON: Encodable {
        package var url: String
        /// Fetched in the background because it was added here or in the web app.
        package var subscribed: Bool
        /// One of the feed file's sources: its rules and login are in the file.
        package var definedInFile: Bool
        /// Whether a login is kept (never the login itself).
        package var hasLogin: Bool
        package var rules: String?
        package var lastFetchedAt: Date?
        package var lastSuccessAt: Date?
        package var lastError: String?
    }

    package struct NewSource: Decodable {
        package var url: String
        package var rules: String?
        package var username: String?
        package var password: String?
        package var token: String?
        package var strict: Bool?
    }

    package struct SourceRulesChange: Decodable {
        package var url: String
        /// The new rules; null or empty removes them.
        package var rules: String?
    }

    package func registerSources(on api: RouterGroup<ServerContext>) {
        api.get("feeds/{slug}/sources") { _, context in
            try AdminJSON.encode(try await self.sourceList(try await self.stored(context).feed.slug))
        }
        api.post("feeds/{slug}/sources") { request, context in try await self.subscribe(request, context) }
        api.patch("feeds/{slug}/sources") { request, context in try await self.changeRules(request, context) }
        api.delete("feeds/{slug}/sources") { request, context in
            let slug = try await self.stored(context).feed.slug
            let url = request.uri.queryParameters.get("url") ?? ""
            try await self.sources.unsubscribe(feed: slug, location: url)
            self.logger.info("source unsubscribed", metadata: ["feed": "\(slug)", "source": "\(url)", "via": "api"])
            return Response(status: .noContent)
        }
    }

    private func sourceList(_ slug: String) async throws -> [SourceJSON] {
        let subscriptions = try await service.subscriptions(feed: slug)
        return try await service.sources(feed: slug).map { status in
            let subscription = subscriptions.first { $0.location == status.location }
            return SourceJSON(url: status.location, subscribed: subscription != nil, definedInFile: self.loader.isDefined(feed: slug, location: status.location),
                              hasLogin: subscription?.login != nil, rules: subscription?.rules, lastFetchedAt: status.lastFetchedAt,
                              lastSuccessAt: status.lastSuccessAt, lastError: status.lastError)
        }
    }

    private func source(_ slug: String, _ url: String) async throws -> SourceJSON {
        guard let source = try await sourceList(slug).first(where: { $0.url == url }) else { throw HTTPError(.notFound, message: "feed '\(slug)' has no source \(url)") }
        return source
    }

    /// Fetches `url`, imports it through its rules and keeps fetching it, in
    /// one transaction: a refused import or bad rules subscribe nothing.
    private func subscribe(_ request: Request, _ context: ServerContext) async throws -> Response {
        let slug = try await stored(context).feed.slug
        let input = try await AdminJSON.decode(NewSource.self, request, limit: SubscriptionRules.maxBytes + (16 << 10))
        let report: ImportReport
        do {
            report = try await sources.importAddress(.init(url: input.url, username: input.username, password: input.password, token: input.token),
                                                     intoFeed: slug, rules: input.rules, strict: input.strict ?? false, keep: true)
        } catch {
            self.metrics.imported(via: .api, ok: false)
            throw error
        }
        self.metrics.imported(via: .api, ok: true)
        self.logger.info("source subscribed", metadata: ["feed": "\(slug)", "source": "\(input.url)", "result": "\(report)",
                                                        "rules": "\(input.rules?.isEmpty ?? true ? "none" : "set")", "via": "api"])
        struct Subscribed: Encodable { var source: SourceJSON; var imported: ImportResult }
        return try AdminJSON.encode(Subscribed(source: try await source(slug, input.url),
                                               imported: ImportResult(added: report.added, updated: report.updated, unchanged: report.unchanged,
                                                                      removed: report.removed, skipped: report.skipped, diagnostics: report.diagnostics)),
                                    status: .created)
    }

    /// New rules for a subscription: saved, then the source is fetched again
    /// in full so that they apply to every event before the answer.
    private func changeRules(_ request: Request, _ context: ServerContext) async throws -> Response {
        let slug = try await stored(context).feed.slug
        let input = try await AdminJSON.decode(SourceRulesChange.self, request, limit: SubscriptionRules.maxBytes + (4 << 10))
        let rules = try await sources.changeRules(feed: slug, location: input.url, rules: input.rules)
        self.logger.info("source rules saved", metadata: ["feed": "\(slug)", "source": "\(input.url)", "rules": "\(rules == nil ? "none" : "set")", "via": "api"])
        return try AdminJSON.encode(try await source(slug, input.url))
    }
}

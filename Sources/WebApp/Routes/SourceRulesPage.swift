import CountdownStore
import Foundation
import Hummingbird
import Pages
import Rules
import Subscriptions

/// The rules of a source the feed keeps fetching (one added with "keep it up
/// to date" on the import page): the `include:`, `exclude:` and `change:` a
/// source has in a feed file, written here as YAML (`SubscriptionRules`).
/// Saving stores them, forgets the source's validators and fetches it again
/// at once, so the new rules see every event and the feed shows the result
/// when the page comes back. Sources of a feed file keep their rules there.
package struct SourceRulesPage: Sendable {
    package let app: WebApp

    package struct RulesForm: PostedForm {
        package var csrf: String?
        package var location: String?
        package var rules: String?
    }

    package struct RulesView {
        package var slug: String
        package var name: String
        package var location: String
        package var rules: String
        package var error: String?
        /// Shown under the field: what rules look like.
        package var example = """
            exclude:
              status: [tentative, cancelled]
            change:
              prefix: "School: "
              strip: [attendees, description]
            """
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("feeds/{slug}/sources/rules") { request, context in
            let compiled = try await self.app.compiled(context)
            let location = request.uri.queryParameters["location"].map(String.init) ?? ""
            let subscription = try await self.subscription(compiled.slug, location, context)
            return try self.page(RulesView(slug: compiled.slug, name: compiled.feed.name, location: location, rules: subscription.rules ?? ""), context)
                .response(from: request, context: context)
        }
        app.post("feeds/{slug}/sources/rules") { request, context in try await self.save(request, context) }
    }

    private func save(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let compiled = try await app.compiled(context)
        let form = try await WebForm.decode(RulesForm.self, request, limit: SubscriptionRules.maxBytes + (8 << 10))
        let location = form.location ?? ""
        let words = app.words(context)
        let rules: SubscriptionRules.Checked?
        do {
            rules = try await app.sources.changeRules(feed: compiled.slug, location: location, rules: form.rules)
        } catch SourceUseCases.Refusal.invalidRules(let invalid) {
            var view = RulesView(slug: compiled.slug, name: compiled.feed.name, location: location, rules: form.rules ?? "")
            view.error = words["sourceRules.invalid", ["error": invalid.description]]
            return try page(view, context, status: .unprocessableContent).response(from: request, context: context)
        } catch let refusal as SourceUseCases.Refusal {
            throw Self.refused(refusal, compiled.slug, words)
        }
        app.logger.info("source rules saved", metadata: ["feed": "\(compiled.slug)", "source": "\(location)", "rules": "\(rules == nil ? "none" : "set")",
                                                        "via": "web app"])
        return app.redirect("/app/feeds/\(compiled.slug)#sources", flash: words[rules == nil ? "flash.rulesCleared" : "flash.rulesSaved"], context: context)
    }

    /// The feed's subscription to `location`; a 404 for an address it does
    /// not fetch, a 409 for one its feed file defines (its rules are there).
    private func subscription(_ slug: String, _ location: String, _ context: WebAppContext) async throws -> SourceSubscription {
        do { return try await app.sources.subscription(feed: slug, location: location) } catch let refusal as SourceUseCases.Refusal {
            throw Self.refused(refusal, slug, app.words(context))
        }
    }

    /// A refusal in the page's words.
    private static func refused(_ refusal: SourceUseCases.Refusal, _ slug: String, _ words: WebWords) -> HTTPError {
        switch refusal {
        case .definedInFile: HTTPError(.conflict, message: words["sourceRules.defined", ["slug": slug]])
        case .notSubscribed(_, let location): HTTPError(.notFound, message: words["sourceRules.notSubscribed", ["location": String(location.prefix(300))]])
        case .invalidRules, .remote, .previewedTooOften: HTTPError(refusal.status, message: refusal.description)
        }
    }

    private func page(_ view: RulesView, _ context: WebAppContext, status: HTTPResponse.Status = .ok) -> HTMLPage {
        app.render("source-rules", title: app.words(context)["sourceRules.title", ["name": view.name]], view, context: context, status: status)
    }
}

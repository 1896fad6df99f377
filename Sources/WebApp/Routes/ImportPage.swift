import CountdownStore
import Foundation
import Hummingbird
import MultipartKit
import Pages
import Rules
import Services
import Subscriptions

/// Import into a feed from the browser: a dropped or chosen `.ics` file, or a
/// URL, which may become a source the feed keeps fetching. The result says
/// what was added, updated, unchanged and skipped, and why; a strict import
/// that fails shows the lines and properties, and changes nothing.
package struct ImportPage: Sendable {
    package let app: WebApp

    package struct ImportForm: PostedForm {
        package var csrf: String?
        package var file: Data?
        package var url: String?
        package var keep: String?
        package var strict: String?
        /// A login for the address: written, never shown again (the page does not fill them back in).
        package var username: String?
        package var password: String?
        package var token: String?
        /// Rules for what is imported (`SubscriptionRules`), kept with an address kept up to date.
        package var rules: String?
    }

    package struct ImportView: TemplateView {
        package struct Result: TemplateView {
            package var added: Int
            package var updated: Int
            package var unchanged: Int
            package var removed: Int
            package var skipped: [String]
            package var diagnostics: [String]
            package var templateValues: [String: Any] {
                ["hasSkipped": !skipped.isEmpty, "hasDiagnostics": !diagnostics.isEmpty, "skippedCount": skipped.count, "hasRemoved": removed > 0]
            }
            package var subscribed: String?
        }
        package var slug: String
        package var name: String
        package var result: Result?
        package var error: String?
        package var problems: [String]
        package var templateValues: [String: Any] { ["hasProblems": !problems.isEmpty] }
        package var url: String?
        package var rules: String?
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("feeds/{slug}/import") { _, context in
            let compiled = try await self.app.compiled(context)
            return self.app.render("import", title: self.app.words(context)["import.title", ["name": compiled.feed.name]],
                                   ImportView(slug: compiled.slug, name: compiled.feed.name, problems: []), context: context)
        }
        app.post("feeds/{slug}/import") { request, context in try await self.importCalendar(request, context) }
    }

    private func importCalendar(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let compiled = try await app.compiled(context)
        let slug = compiled.slug
        let form = try await WebForm.decode(ImportForm.self, request, limit: app.maxBodyBytes + (64 << 10))
        var view = ImportView(slug: slug, name: compiled.feed.name, problems: [], url: form.url, rules: form.rules)
        let words = app.words(context)
        func page(_ status: HTTPResponse.Status) throws -> Response {
            try app.render("import", title: words["import.title", ["name": compiled.feed.name]], view, context: context, status: status)
                .response(from: request, context: context)
        }
        let keep = form.keep.isChecked && (form.file ?? Data()).isEmpty && form.url.nonEmpty != nil
        let sources = app.sources
        let report: ImportReport
        do {
            if let file = form.file, !file.isEmpty {
                report = try await sources.importFile(Array(file), intoFeed: slug, rules: form.rules, strict: form.strict.isChecked)
            } else if let url = form.url.nonEmpty {
                report = try await sources.importAddress(.init(url: url, username: form.username, password: form.password, token: form.token),
                                                         intoFeed: slug, rules: form.rules, strict: form.strict.isChecked, keep: keep)
            } else {
                view.error = words["import.nothingChosen"]
                return try page(.unprocessableContent)
            }
            app.metrics.imported(via: .app, ok: true)
        } catch let refusal as SourceUseCases.Refusal {
            switch refusal {
            case .invalidRules(let invalid): view.error = words["sourceRules.invalid", ["error": invalid.description]]
            case .remote(let remote): view.error = Self.text(of: remote, url: form.url.nonEmpty ?? "", words)
            case .definedInFile, .notSubscribed, .previewedTooOften: view.error = refusal.description
            }
            return try page(refusal.status == .badRequest ? .unprocessableContent : refusal.status)
        } catch let error as StoreError {
            app.metrics.imported(via: .app, ok: false)
            view.error = words["import.failed", ["error": Self.headline(error)]]
            view.problems = Self.problems(error)
            return try page(error.status)
        }
        app.logger.info("import", metadata: ["feed": "\(slug)", "result": "\(report)", "via": "web app"])
        view.result = .init(added: report.added, updated: report.updated, unchanged: report.unchanged, removed: report.removed,
                            skipped: report.skipped, diagnostics: Array(report.diagnostics.prefix(200)),
                            subscribed: keep ? form.url.nonEmpty : nil)
        return try page(.ok)
    }

    /// A refused address in the page's words.
    package static func text(of refusal: RemoteCalendar.Refusal, url: String, _ words: WebWords) -> String {
        switch refusal {
        case .notHTTP: words["import.badScheme"]
        case .loginInAddress: words["import.loginInAddress"]
        case .badLogin(let reason): reason
        case .loginNotKept(let reason): words["import.loginNotKept", ["error": reason]]
        case .sentNothing: words["import.sentNothing", ["url": url]]
        case .fetchFailed(let failure): words["import.fetchFailed", ["error": failure.description]]
        }
    }

    /// The first line of a refusal; a strict failure lists its problems below it.
    package static func headline(_ error: StoreError) -> String {
        let text = error.description
        return text.split(separator: "\n").first.map(String.init) ?? text
    }

    package static func problems(_ error: StoreError) -> [String] {
        Array(error.description.split(separator: "\n").dropFirst().map(String.init).prefix(200))
    }
}

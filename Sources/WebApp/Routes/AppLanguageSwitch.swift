import Countdowns
import Foundation
import Hummingbird

/// `POST /app/language`: the switch at the foot of every page. It remembers
/// the chosen language in a cookie for a year (the app's pages only), signed
/// in or not, and goes back to the page it was sent from; a signed-in
/// person's choice is also kept with them (`SignInPages` applies it on their
/// next sign-in, on any device).
package struct AppLanguageSwitch: Sendable {
    package let app: WebApp

    package struct Form: PostedForm {
        package var csrf: String?
        package var language: String?
        package var back: String?
    }

    package func register(on group: RouterGroup<WebAppContext>) {
        group.post("language") { request, context in
            let form = try await WebForm.decode(Form.self, request, limit: 4 << 10)
            let words = app.words(context)
            guard let code = form.language, code.utf8.count <= 16, let language = Language.named(code) else {
                throw HTTPError(.badRequest, message: words["error.language", ["codes": Language.codes.joined(separator: ", ")]])
            }
            var response = Response.redirect(to: Self.safeBack(form.back ?? "/app"), type: .normal)
            response.headers[values: .setCookie].append(Self.cookie(language, app).description)
            if let person = context.person, !context.signedInByProxy {
                try await app.parts.service.acting(as: .person(person.access)).setLanguage(language.code)
            }
            app.logger.debug("app language chosen", metadata: ["language": "\(language.code)"])
            return response
        }
    }

    /// The cookie that remembers `language` for a year, on the app's pages.
    package static func cookie(_ language: Language, _ app: WebApp) -> Cookie {
        Cookie(name: AppLanguageMiddleware.cookieName, value: language.code, maxAge: 365 * 86_400, path: "/app",
               secure: app.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// A path of the app to go back to: only `/app` and what is under it, so
    /// the switch cannot send a browser elsewhere (`//evil.example`, `https:`, `/app/../`).
    package static func safeBack(_ path: String) -> String {
        guard path == "/app" || path.hasPrefix("/app/"), !path.contains("//"), !path.contains("\\"), !path.contains(".."), path.utf8.count <= 512,
              !path.hasPrefix("/app/language") else { return "/app" }
        return path
    }
}

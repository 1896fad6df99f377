import Countdowns
import Foundation
import Hummingbird

/// `POST /app/language`: the switch at the foot of every page. It remembers
/// the chosen language in a cookie for a year (the app's pages only), signed
/// in or not, and goes back to the page it was sent from.
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
            let cookie = Cookie(name: AppLanguageMiddleware.cookieName, value: language.code, maxAge: 365 * 86_400, path: "/app",
                                secure: app.secureCookies, httpOnly: true, sameSite: .lax)
            response.headers[values: .setCookie].append(cookie.description)
            app.logger.debug("app language chosen", metadata: ["language": "\(language.code)"])
            return response
        }
    }

    /// A path of the app to go back to: only `/app` and what is under it, so
    /// the switch cannot send a browser elsewhere (`//evil.example`, `https:`, `/app/../`).
    package static func safeBack(_ path: String) -> String {
        guard path == "/app" || path.hasPrefix("/app/"), !path.contains("//"), !path.contains("\\"), !path.contains(".."), path.utf8.count <= 512,
              !path.hasPrefix("/app/language") else { return "/app" }
        return path
    }
}

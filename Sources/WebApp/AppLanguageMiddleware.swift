import Countdowns
import Foundation
import HTTPTypes
import Hummingbird

/// Chooses the language of the app's pages: the one the language switch
/// remembered in its cookie, else the best of the browser's `Accept-Language`,
/// else English. The public outputs choose theirs apart (`ViewerLanguage`):
/// a feed's language is its subscribers', the app's is its owner's.
package struct AppLanguageMiddleware: RouterMiddleware {
    package typealias Context = WebAppContext
    package static let cookieName = "tminus_lang"

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.language = Self.language(for: request)
        // A page a POST answered (a form shown again) is not one a GET can open: the switch goes to the app's start.
        context.path = request.method == .get ? AppLanguageSwitch.safeBack(request.uri.path) : "/app"
        return try await next(request, context)
    }

    package static func language(for request: Request) -> Language {
        if let chosen = request.cookies[cookieName]?.value, chosen.utf8.count <= 16, let language = Language.named(String(chosen)) {
            return language
        }
        if let header = request.headers[.acceptLanguage], let language = Language.negotiate(String(header.prefix(512))) {
            return language
        }
        return .english
    }
}

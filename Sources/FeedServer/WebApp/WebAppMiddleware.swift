import CountdownStore
import Foundation
import Hummingbird

/// Gives every browser a CSRF cookie (random, HttpOnly, SameSite=Strict) the
/// first time it opens a page of the app, and tells the page what it is, so
/// that its forms carry the matching token.
struct CSRFCookieMiddleware: RouterMiddleware {
    typealias Context = WebAppContext
    let secure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let cookie = request.cookies[CSRFToken.cookieName]?.value, (16...64).contains(cookie.utf8.count) {
            context.csrfCookie = String(cookie)
            return try await next(request, context)
        }
        context.csrfCookie = Secret.generate(bytes: 24)
        var response = try await next(request, context)
        let cookie = Cookie(name: CSRFToken.cookieName, value: context.csrfCookie, path: "/app", secure: secure, httpOnly: true, sameSite: .strict)
        response.headers[values: .setCookie].append(cookie.description)
        return response
    }
}

/// Sends visitors without a session to the sign-in page: a 303 for pages, a
/// 401 for anything else, so nothing behind it runs for them.
struct RequireSignInMiddleware: RouterMiddleware {
    typealias Context = WebAppContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.isSignedIn else {
            if request.method == .get || request.method == .head { return .redirect(to: "/app/signin", type: .normal) }
            throw HTTPError(.unauthorized, message: "sign in first")
        }
        return try await next(request, context)
    }
}

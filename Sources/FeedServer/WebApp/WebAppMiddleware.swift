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

/// Sends visitors without a session (or whose session expired, mid-form
/// included) to the sign-in page with a 303, so nothing behind it runs for them.
struct RequireSignInMiddleware: RouterMiddleware {
    typealias Context = WebAppContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.isSignedIn else { return .redirect(to: "/app/signin", type: .normal) }
        return try await next(request, context)
    }
}

/// The app's errors as pages, not as the API's JSON: a browser that asks for a
/// feed that is gone, or posts an expired form, gets the status and the same
/// message in the app's layout.
struct WebErrorMiddleware: RouterMiddleware {
    typealias Context = WebAppContext
    let app: WebApp

    struct View {
        var heading: String
        var message: String
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            let message = (error as? HTTPError)?.body ?? String(describing: error)
            let heading = error.status == .notFound ? "Not found" : error.status == .forbidden ? "Refused" : "That did not work"
            var response = try app.render("error", title: heading + " — tminus", View(heading: heading, message: message), context: context,
                                          status: error.status).response(from: request, context: context)
            for field in (error as? HTTPError)?.headers ?? [:] where field.name != .contentType { response.headers.append(field) }
            return response
        }
    }
}

import Catalog
import CountdownStore
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import Pages
import Services

/// Gives every browser a CSRF cookie (random, HttpOnly, SameSite=Strict) the
/// first time it opens a page of the app, and tells the page what it is, so
/// that its forms carry the matching token.
package struct CSRFCookieMiddleware: RouterMiddleware {
    package typealias Context = WebAppContext
    package let secure: Bool

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.sessionCookie = request.cookies[WebAppContext.sessionCookieName].map { String($0.value) }
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

/// Refuses a POST that a browser says came from another site: `Origin`, when
/// it names a site, must be the server's own (the public `--base-url`, or the
/// Host the request was sent to), and `Sec-Fetch-Site`, when sent, must be
/// `same-origin` or `none` (typed by the user). A request with neither header (curl, an old browser)
/// still needs its CSRF token: this is a second wall, not the only one.
package struct SameOriginMiddleware: RouterMiddleware {
    package typealias Context = WebAppContext
    package let baseURL: String
    package let pages: WebPages

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased(), site != "same-origin", site != "none" {
            throw HTTPError(.forbidden, message: pages.words(context)["error.otherSite"] + " (Sec-Fetch-Site: \(site.prefix(20)))")
        }
        // `Origin: null` is what Chromium sends from the app's own pages, which
        // set `Referrer-Policy: no-referrer`: it names no site, so it proves nothing
        // either way (Sec-Fetch-Site and the token still do).
        if let origin = request.headers[HTTPField.Name("Origin")!], origin != "null" {
            let own = [Self.origin(of: baseURL)] + ["http", "https"].map { "\($0)://\(request.head.authority ?? "")" }
            guard own.contains(origin.lowercased()) else {
                throw HTTPError(.forbidden, message: pages.words(context)["error.otherSite"] + " (Origin: \(origin.prefix(80)))")
            }
        }
        return try await next(request, context)
    }

    /// `https://Example.org:8443/path` → `https://example.org:8443`.
    static func origin(of url: String) -> String {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return url.lowercased() }
        return "\(scheme)://\(host)\(parsed.port.map { ":\($0)" } ?? "")".lowercased()
    }
}

/// Checks the CSRF token of every POST to the app before any handler runs, so
/// that no route can forget it: the token in the form must be the one the page
/// gave (bound to the browser's CSRF cookie, and to the session once signed
/// in). The body is read here, up to `maxMultipartBytes` for forms with a file
/// and 64 KB for the others, and kept for the handler, which reads it within
/// its own, tighter limit.
struct CSRFCheckMiddleware: RouterMiddleware {
    typealias Context = WebAppContext
    let csrf: CSRFToken
    let pages: WebPages
    let maxMultipartBytes: Int
    static let maxFormBytes = 64 << 10

    private struct Token: Decodable { var csrf: String? }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        let contentType = request.headers[.contentType] ?? ""
        let limit = contentType.lowercased().hasPrefix("multipart/form-data") ? maxMultipartBytes : Self.maxFormBytes
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: pages.words(context)["error.tooLarge", ["kb": String(limit >> 10)]])
        }
        let token = try WebForm.decode(Token.self, body: body, contentType: contentType).csrf
        guard csrf.accepts(token, cookie: request.cookies[CSRFToken.cookieName].map { String($0.value) }, session: context.boundSession) else {
            throw HTTPError(.forbidden, message: pages.words(context)["error.expired"])
        }
        return try await next(request, context)
    }
}

/// Signs in the person an authenticating proxy names (`--trusted-proxy`,
/// `--user-header`) on every request that comes from it, with no session;
/// the header from anyone else is ignored. A login the proxy vouches for but
/// tminus does not know is kept, for `RequireSignInMiddleware` to refuse
/// with a 403 that says so (as a page).
struct ProxySignInMiddleware: RouterMiddleware {
    typealias Context = WebAppContext
    let proxy: ProxySignIn
    let service: CountdownService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let name = HTTPField.Name(proxy.header), let named = request.headers[name], proxy.trusts(context.remoteAddress?.ipAddress) else {
            return try await next(request, context)
        }
        let login = String(named.prefix(64))
        var context = context
        if let person = try await service.proxyPerson(login: login, creating: proxy.createsAccounts) {
            context.person = person
            context.signedInByProxy = true
        } else {
            context.logger.notice("the proxy named someone without an account here", metadata: ["login": "\(login)"])
            context.proxyNamedUnknown = login
        }
        return try await next(request, context)
    }
}

/// Learns who the session is for, and ends it before any page sees it when
/// that person was deleted or disabled, or changed their password or signed
/// out everywhere since it began: on every replica, at the next request.
struct SessionPersonMiddleware: RouterMiddleware {
    typealias Context = WebAppContext
    let service: CountdownService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !context.signedInByProxy, let session = context.sessions.session else { return try await next(request, context) }
        var context = context
        if let id = session.personId, let person = try await service.sessionPerson(id: id, epoch: session.epoch) {
            if session.awaitingSecondFactor == true { context.awaitingCode = person } else { context.person = person }
        } else {
            context.sessions.clearSession()
        }
        return try await next(request, context)
    }
}

/// Sends visitors without a session (or whose session expired, mid-form
/// included) to the sign-in page with a 303, so nothing behind it runs for
/// them; the pages behind it act as the signed-in person.
struct RequireSignInMiddleware: RouterMiddleware {
    typealias Context = WebAppContext

    let pages: WebPages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let login = context.proxyNamedUnknown {
            throw HTTPError(.forbidden, message: pages.words(context)["error.proxyUnknown", ["login": login]])
        }
        guard let person = context.person else { return .redirect(to: "/app/signin", type: .normal) }
        return try await RequestPrincipal.$current.withValue(.person(person.access)) { try await next(request, context) }
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
            let words = app.words(context)
            let heading = words[error.status == .notFound ? "error.notFound" : error.status == .forbidden ? "error.refused" : "error.failed"]
            var response = try app.render("error", title: heading, View(heading: heading, message: message), context: context,
                                          status: error.status).response(from: request, context: context)
            for field in (error as? HTTPError)?.headers ?? [:] where field.name != .contentType { response.headers.append(field) }
            return response
        }
    }
}

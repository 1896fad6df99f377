import Countdowns
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import NIOCore

/// The context of `/app` requests: the server's, plus the session that
/// hummingbird-auth's `SessionMiddleware` loads from the store.
struct WebAppContext: ChildRequestContext, SessionRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions: SessionContext<WebSession>
    let remoteAddress: SocketAddress?
    static let sessionCookieName = "tminus_session"
    /// This browser's CSRF cookie value (set by `CSRFCookieMiddleware`, made when missing).
    var csrfCookie = ""
    /// The session cookie the request came with (set by `CSRFCookieMiddleware`).
    var sessionCookie: String?
    /// The language pages are written in (`AppLanguageMiddleware`: the switch's cookie, else Accept-Language).
    var language: Language = .english
    /// This page's path, for the language switch to come back to (`AppLanguageMiddleware`).
    var path = "/app"

    /// What a form's CSRF token is bound to besides the CSRF cookie: the session, while signed in.
    var boundSession: String? { isSignedIn ? sessionCookie : nil }

    init(context: ServerContext) {
        coreContext = context.coreContext
        sessions = SessionContext()
        remoteAddress = context.remoteAddress
    }

    var isSignedIn: Bool { sessions.session != nil }

    /// Who the sign-in throttle counts failures against: the peer's IP address,
    /// or, behind a trusted proxy, the address the proxy appended last.
    func clientKey(_ request: Request, trustForwardedFor: Bool) -> String {
        if trustForwardedFor, let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!]?.split(separator: ",").last {
            let address = forwarded.trimmingCharacters(in: .whitespaces)
            if !address.isEmpty, address.count <= 64 { return address }
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }
}

import Countdowns
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import NIOCore
import Services

/// The context of `/app` requests: the server's, plus the session that
/// hummingbird-auth's `SessionMiddleware` loads from the store.
package struct WebAppContext: ChildRequestContext, SessionRequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let sessions: SessionContext<WebSession>
    package let remoteAddress: SocketAddress?
    package static let sessionCookieName = "tminus_session"
    /// This browser's CSRF cookie value (set by `CSRFCookieMiddleware`, made when missing).
    package var csrfCookie = ""
    /// The session cookie the request came with (set by `CSRFCookieMiddleware`).
    package var sessionCookie: String?
    /// The language pages are written in (`AppLanguageMiddleware`: the switch's cookie, else Accept-Language).
    package var language: Language = .english
    /// This page's path, for the language switch to come back to (`AppLanguageMiddleware`).
    package var path = "/app"

    /// What a form's CSRF token is bound to besides the CSRF cookie: the session, while signed in.
    package var boundSession: String? { isSignedIn ? sessionCookie : nil }

    package init(context: ServerContext) {
        coreContext = context.coreContext
        sessions = SessionContext()
        remoteAddress = context.remoteAddress
    }

    /// Who is signed in, once `SessionPersonMiddleware` checked the session.
    package var person: SignedInPerson?
    /// Whose password was right, while their second factor's code is asked.
    package var awaitingCode: SignedInPerson?
    /// `person` came from the authenticating proxy's header, not from a session.
    package var signedInByProxy = false
    /// The login the proxy named, when nobody here has it.
    package var proxyNamedUnknown: String?

    package var isSignedIn: Bool { person != nil }

    /// Who the sign-in throttle counts failures against: the peer's IP address,
    /// or, behind a trusted proxy, the address the proxy appended last.
    package func clientKey(_ request: Request, trustForwardedFor: Bool) -> String {
        if trustForwardedFor, let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!]?.split(separator: ",").last {
            let address = forwarded.trimmingCharacters(in: .whitespaces)
            if !address.isEmpty, address.count <= 64 { return address }
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }
}

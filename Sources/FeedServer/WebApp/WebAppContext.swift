import Hummingbird
import HummingbirdAuth
import NIOCore

/// The context of `/app` requests: the server's, plus the session that
/// hummingbird-auth's `SessionMiddleware` loads from the store.
struct WebAppContext: ChildRequestContext, SessionRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions: SessionContext<WebSession>
    let remoteAddress: SocketAddress?
    /// This browser's CSRF cookie value (set by `CSRFCookieMiddleware`, made when missing).
    var csrfCookie = ""

    init(context: ServerContext) {
        coreContext = context.coreContext
        sessions = SessionContext()
        remoteAddress = context.remoteAddress
    }

    var isSignedIn: Bool { sessions.session != nil }

    /// Who the sign-in throttle counts failures against: the peer's IP address.
    var clientKey: String { remoteAddress?.ipAddress ?? "unknown" }
}

import CountdownStore
import Crypto
import Foundation

/// Cross-site request forgery protection for every form, signed in or not,
/// without storing anything per visitor: the browser holds a random value in an
/// HttpOnly, SameSite=Strict cookie, and each form carries an HMAC of it under
/// the server's key. A forged post from another site can neither read the
/// cookie nor compute the HMAC. The key is kept in the store's settings, so all
/// replicas on one store accept each other's forms.
///
/// Once signed in, the HMAC also covers the session cookie: a token seen in one
/// session (a page saved, a token leaked) is no good in the next one, and a
/// token made before sign-in cannot act inside the session.
package struct CSRFToken: Sendable {
    package static let cookieName = "tminus_csrf"
    package static let fieldName = "csrf"
    private let keyBytes: Data

    package init(key: SymmetricKey) { keyBytes = key.withUnsafeBytes { Data($0) } }

    /// The form token for a browser's cookie value, and its session when signed in.
    package func token(for cookie: String, session: String?) -> String {
        let bound = session.map { cookie + "\u{0}" + $0 } ?? cookie
        let mac = HMAC<SHA256>.authenticationCode(for: Data(bound.utf8), using: SymmetricKey(data: keyBytes))
        return Base64URL.encode(mac)
    }

    package func accepts(_ token: String?, cookie: String?, session: String?) -> Bool {
        guard let token, let cookie, cookie.utf8.count >= 16, cookie.utf8.count <= 64 else { return false }
        return Secret.constantTimeEquals(self.token(for: cookie, session: session), token)
    }
}

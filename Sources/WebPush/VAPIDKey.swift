import CountdownStore
import Crypto
import Foundation

/// The server's VAPID key (RFC 8292): push services take a message only with
/// a token signed by the key a subscription was made with, so one key serves
/// every replica and outlives restarts (kept in the store, made at first start).
/// The browser is given its public half as `applicationServerKey`.
public struct VAPIDKey: Sendable, Equatable {
    /// The private scalar (32 bytes): Crypto's key type is not `Sendable`, so it is made when signing.
    private let raw: [UInt8]
    /// The public key, uncompressed, in base64url: the page's `applicationServerKey` and the header's `k`.
    public let publicKey: String

    public init(_ privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        raw = Array(privateKey.rawRepresentation)
        publicKey = Base64URL.encode(privateKey.publicKey.x963Representation)
    }

    /// A key as `stored` keeps it; nil when the text is not one.
    public init?(stored text: String) {
        guard let raw = Base64URL.decode(text), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
        self.init(key)
    }

    /// The private key as the store keeps it: its 32 bytes in base64url.
    public var stored: String { Base64URL.encode(raw) }

    var privateKey: P256.Signing.PrivateKey {
        // The bytes came from a key: they always make one again.
        get throws { try P256.Signing.PrivateKey(rawRepresentation: raw) }
    }

    /// The longest a token may live (RFC 8292 §2: at most 24 hours).
    public static let maxLifetime: TimeInterval = 86_400

    /// The `Authorization` header of a push to `audience` (the endpoint's origin):
    /// `vapid t=JWT, k=KEY`, the JWT an ES256 signature over `aud`, `exp` and
    /// `sub` (how the push service reaches the operator: a `mailto:` or https address).
    public func authorization(audience: String, subject: String, now: Date, lifetime: TimeInterval = 12 * 3_600) throws -> String {
        "vapid t=\(try token(audience: audience, subject: subject, expires: now.addingTimeInterval(min(lifetime, Self.maxLifetime)))), k=\(publicKey)"
    }

    func token(audience: String, subject: String, expires: Date) throws -> String {
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = ["aud": audience, "exp": Int(expires.timeIntervalSince1970), "sub": subject] as [String: Any]
        let json = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        let signingInput = header + "." + Base64URL.encode(json)
        // JWS ES256 (RFC 7518 §3.4): r and s, 32 bytes each, not DER.
        let signature = try privateKey.signature(for: Array(signingInput.utf8)).rawRepresentation
        return signingInput + "." + Base64URL.encode(signature)
    }
}

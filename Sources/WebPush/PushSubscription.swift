import CountdownStore
import Foundation

/// Where one browser or phone of a person receives web pushes (the Push API's
/// `PushSubscription`, RFC 8030): the push service's endpoint and the keys the
/// message is encrypted to (RFC 8291). Checked once, on the way in: an
/// endpoint that is not https, or keys of the wrong length, are refused with
/// what is wrong, never kept and failed at every reminder.
public struct PushSubscription: Sendable, Hashable, Codable {
    public var endpoint: URL
    /// The browser's P-256 public key, uncompressed (65 bytes): `keys.p256dh`.
    public var p256dh: [UInt8]
    /// The browser's authentication secret (16 bytes): `keys.auth`.
    public var auth: [UInt8]

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case endpoint(String)
        case key(String)

        public var description: String {
            switch self {
            case .endpoint(let why): "the subscription's endpoint \(why)"
            case .key(let why): "the subscription's keys: \(why)"
            }
        }
    }

    /// `allowHTTP` is for a push service on loopback in tests; browsers' services are https.
    public init(endpoint text: String, p256dh: String, auth: String, allowHTTP: Bool = false) throws(Problem) {
        guard text.utf8.count <= 2_048, let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false else {
            throw .endpoint("is not an address (at most 2 KB): \(text.prefix(80))")
        }
        guard scheme == "https" || allowHTTP && scheme == "http" else { throw .endpoint("must be https: \(text.prefix(80))") }
        guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 0x04 else {
            throw .key("p256dh must be an uncompressed P-256 point, 65 bytes in base64url")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else { throw .key("auth must be 16 bytes in base64url") }
        endpoint = url
        self.p256dh = key
        self.auth = secret
    }

    /// The origin a VAPID token is made for (RFC 8292 §2: the `aud` claim).
    public var audience: String {
        var origin = "\(endpoint.scheme?.lowercased() ?? "https")://\(endpoint.host?.lowercased() ?? "")"
        if let port = endpoint.port { origin += ":\(port)" }
        return origin
    }
}

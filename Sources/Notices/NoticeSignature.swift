import Crypto
import Foundation

/// How a webhook's receiver knows a POST came from this server and is fresh:
/// `Tminus-Signature: sha256=HEX`, the HMAC-SHA256 under the shared secret of
/// `"{Tminus-Timestamp}.{body}"`. Signing the timestamp with the body stops a
/// captured request from being replayed later; the receiver compares in
/// constant time and refuses timestamps more than a few minutes old.
package enum NoticeSignature {
    package static func sign(body: [UInt8], timestamp: Int, secret: String) -> String {
        var message = Array("\(timestamp).".utf8)
        message += body
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}

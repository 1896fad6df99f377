import Crypto
import Foundation

/// A push message's body encrypted for one subscription, as RFC 8291 says
/// (`Content-Encoding: aes128gcm`, RFC 8188): an ECDH agreement between a key
/// made for this message and the browser's, mixed with its auth secret by
/// HKDF, gives the AES-128-GCM key and nonce; the body is one record behind a
/// header of the salt, the record size and the message's public key. Only
/// the browser can read it; the push service sees its length.
public enum PushEncryption {
    /// The record size written in the header: one record holds the whole message.
    public static let recordSize: UInt32 = 4_096
    /// The most plaintext one message carries: the record less its padding delimiter and tag
    /// (push services take 4,096 bytes of body; the header is 86 more).
    public static let maxPayloadBytes = 4_096 - 86 - 16 - 1

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge(Int)
        case badKey

        public var description: String {
            switch self {
            case .tooLarge(let bytes): "a push message carries at most \(PushEncryption.maxPayloadBytes) bytes, not \(bytes)"
            case .badKey: "the subscription's key is not a point on P-256"
            }
        }
    }

    /// `payload` encrypted for `subscription`. The message's own key and salt
    /// are made here; a test passes RFC 8291's to compare with its example.
    public static func encrypt(_ payload: [UInt8], for subscription: PushSubscription,
                               messageKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
                               salt: [UInt8] = randomSalt()) throws(Problem) -> [UInt8] {
        guard payload.count <= maxPayloadBytes else { throw .tooLarge(payload.count) }
        let browserKey: P256.KeyAgreement.PublicKey
        let shared: SharedSecret
        do {
            browserKey = try P256.KeyAgreement.PublicKey(x963Representation: subscription.p256dh)
            shared = try messageKey.sharedSecretFromKeyAgreement(with: browserKey)
        } catch { throw .badKey }
        let messagePublic = Array(messageKey.publicKey.x963Representation)
        // RFC 8291 §3.3: IKM from the agreement and the auth secret, bound to both public keys.
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscription.p256dh + messagePublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: subscription.auth, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: its plaintext ends with the delimiter 2 and no padding.
        let sealed: AES.GCM.SealedBox
        do { sealed = try AES.GCM.seal(payload + [2], using: key, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) })) }
        catch { preconditionFailure("AES-GCM with a 16-byte key and a 12-byte nonce cannot fail: \(error)") }
        var header = salt
        header += withUnsafeBytes(of: recordSize.bigEndian, Array.init)
        header.append(UInt8(messagePublic.count))
        header += messagePublic
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    public static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

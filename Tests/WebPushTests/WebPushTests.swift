import CountdownStore
import Crypto
import Foundation
import TestSupport
import Testing
@testable import WebPush

/// Issue #64: web push's message encryption (RFC 8291) and VAPID (RFC 8292),
/// checked against the RFC's own example byte for byte, and against a second
/// implementation (http_ece and cryptography, Tests/interop/webpush_check.py)
/// on messages of every size from a fixed seed.
struct WebPushTests {
    static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    /// RFC 8291 Appendix A: the same keys and salt give the same body.
    @Test func theRFCsExampleMessageIsEncryptedToItsVeryBytes() throws {
        let messageKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        let subscription = try PushSubscription(endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
                                                p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                                                auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let body = try PushEncryption.encrypt(Array("When I grow up, I want to be a watermelon".utf8), for: subscription, messageKey: messageKey,
                                              salt: try Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
        #expect(subscription.audience == "https://push.example.net")
    }

    @Test func aSubscriptionThatCannotBeUsedIsRefusedWithWhy() throws {
        let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        #expect(throws: PushSubscription.Problem.endpoint("must be https: http://push.example.net/x")) {
            try PushSubscription(endpoint: "http://push.example.net/x", p256dh: key, auth: "BTBZMqHH6r4Tts7J_aSIgg")
        }
        #expect(throws: PushSubscription.Problem.key("auth must be 16 bytes in base64url")) {
            try PushSubscription(endpoint: "https://push.example.net/x", p256dh: key, auth: "short")
        }
        #expect(throws: PushSubscription.Problem.key("p256dh must be an uncompressed P-256 point, 65 bytes in base64url")) {
            try PushSubscription(endpoint: "https://push.example.net/x", p256dh: "BBBB", auth: "BTBZMqHH6r4Tts7J_aSIgg")
        }
        let subscription = try PushSubscription(endpoint: "https://push.example.net/x", p256dh: key, auth: "BTBZMqHH6r4Tts7J_aSIgg")
        #expect(throws: PushEncryption.Problem.tooLarge(PushEncryption.maxPayloadBytes + 1)) {
            try PushEncryption.encrypt(Array(repeating: 1, count: PushEncryption.maxPayloadBytes + 1), for: subscription)
        }
        // A point not on the curve: refused when encrypting, never a crash.
        var offCurve = try #require(Base64URL.decode(key))
        offCurve[40] ^= 0xFF
        let broken = try PushSubscription(endpoint: "https://push.example.net/x", p256dh: Base64URL.encode(offCurve), auth: "BTBZMqHH6r4Tts7J_aSIgg")
        #expect(throws: PushEncryption.Problem.badKey) { try PushEncryption.encrypt([1], for: broken) }
    }

    @Test(.enabled(if: PythonChecker.available, "needs TMINUS_PYTHON (make test) for http_ece"))
    func messagesOfEverySizeDecryptWithASecondImplementation() async throws {
        var random = SplitMix(seed: 64)
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let subscription = try PushSubscription(endpoint: "https://push.example.net/x", p256dh: Base64URL.encode(browser.publicKey.x963Representation),
                                                auth: Base64URL.encode(auth))
        let sizes = [0, 1, 15, 16, 17, 255, 1_000, PushEncryption.maxPayloadBytes] + (0..<24).map { _ in Int.random(in: 0...PushEncryption.maxPayloadBytes, using: &random) }
        let payloads = sizes.map { size in (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let messages = try payloads.map { payload in
            ["body": Base64URL.encode(try PushEncryption.encrypt(payload, for: subscription)), "browserPrivate": Base64URL.encode(browser.rawRepresentation)]
        }
        let script = Corpus.packageRoot.appendingPathComponent("Tests/interop/webpush_check.py").path
        let answer = try await PythonChecker.run(["auth": Base64URL.encode(auth), "messages": messages], script: script)
        let read = try #require(answer["messages"] as? [[String: String]])
        #expect(read.count == payloads.count)
        for (payload, result) in zip(payloads, read) {
            #expect(result["plaintext"].flatMap(Base64URL.decode) == payload, "\(payload.count) bytes: \(result["error"] ?? "other bytes")")
        }
    }

    @Test(.enabled(if: PythonChecker.available, "needs TMINUS_PYTHON (make test) for cryptography"))
    func aVAPIDTokenIsAnES256JWTASecondImplementationVerifies() async throws {
        let key = VAPIDKey()
        #expect(VAPIDKey(stored: key.stored)?.publicKey == key.publicKey, "kept and read back")
        #expect(VAPIDKey(stored: "not a key") == nil)
        let now = Date(timeIntervalSince1970: 1_796_400_000)
        let header = try key.authorization(audience: "https://push.example.net", subject: "mailto:operator@example.org", now: now, lifetime: 7 * 86_400)
        let token = try #require(header.split(separator: " ").dropFirst().first.map { String($0.dropFirst(2).dropLast()) })
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(", k=\(key.publicKey)"))
        let script = Corpus.packageRoot.appendingPathComponent("Tests/interop/webpush_check.py").path
        let answer = try #require(try await PythonChecker.run(["token": token, "publicKey": key.publicKey], script: script)["token"] as? [String: Any])
        #expect(answer["valid"] as? Bool == true, "\(answer)")
        let claims = try #require(answer["claims"] as? [String: Any])
        #expect(claims["aud"] as? String == "https://push.example.net" && claims["sub"] as? String == "mailto:operator@example.org")
        #expect(claims["exp"] as? Int == Int(now.timeIntervalSince1970) + 86_400, "at most 24 hours, whatever was asked")
        #expect((answer["header"] as? [String: String]) == ["typ": "JWT", "alg": "ES256"])
        let forged = try #require(try await PythonChecker.run(["token": token, "publicKey": VAPIDKey().publicKey], script: script)["token"] as? [String: Any])
        #expect(forged["valid"] as? Bool == false, "another key's signature does not verify")
    }
}

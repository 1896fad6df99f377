import CountdownStore
import Foundation
import HummingbirdOTP

/// The second factor: a TOTP (RFC 6238: 6 digits, 30 s, SHA-1, what every
/// authenticator app reads from the `otpauth://` QR code) and ten one-time
/// recovery codes. A code is good for its step and the ones either side (a
/// phone's clock drifts), and never twice: the last step accepted is kept.
public enum SecondFactor {
    /// What enrolling shows once: the secret (to type in), its `otpauth://`
    /// address (the QR code), and the secret sealed for the confirming form
    /// to carry back, so that nothing unconfirmed is kept anywhere.
    public struct Enrollment: Sendable {
        public var secret: String
        public var base32: String
        public var address: String
        public var pending: String
    }

    static let stepSeconds: Int64 = 30
    public static let recoveryCodeCount = 10

    /// What a sealed secret is bound to: its person (pending: not yet confirmed).
    static func binding(_ personId: Int64, pending: Bool) -> [String] {
        [pending ? "tminus-totp-pending" : "tminus-totp", String(personId)]
    }

    /// A new secret: 20 random characters (HummingbirdOTP uses the text's bytes as the HMAC key).
    static func newSecret() -> String { Secret.generate(bytes: 15) }

    /// The step a code at `now` belongs to; nil before 1970 (no code then).
    static func step(at now: Date) -> Int64? {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return nil }
        return Int64(seconds) / stepSeconds
    }

    /// The step `code` matches, among `now`'s and its neighbours, if later than `after`.
    static func matchingStep(_ code: String, secret: String, now: Date, after last: Int64?) -> Int64? {
        let digits = code.filter { !$0.isWhitespace }
        guard digits.count == 6, digits.allSatisfy(\.isASCII), let value = Int(digits), let current = step(at: now) else { return nil }
        let totp = TOTP(secret: secret)
        for step in [current - 1, current, current + 1] where step > (last ?? -1) {
            if totp.compute(date: Date(timeIntervalSince1970: TimeInterval(step * stepSeconds))) == value { return step }
        }
        return nil
    }

    /// Ten codes like `k7qm-3xva-p2dn`: 60 bits each, easy to read out and type.
    static func newRecoveryCodes() -> [String] {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return (0..<recoveryCodeCount).map { _ in
            (0..<3).map { _ in String((0..<4).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }) }.joined(separator: "-")
        }
    }

    /// A typed recovery code as it was made: lower case, dashes where they belong.
    static func normalized(_ code: String) -> String {
        let letters = code.lowercased().filter { $0.isLetter || $0.isNumber }
        guard letters.count == 12 else { return code }
        let characters = Array(letters)
        return [0, 4, 8].map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }
}

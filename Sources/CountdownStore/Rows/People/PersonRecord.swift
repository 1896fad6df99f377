import Foundation

/// A `person` row (schema v13): someone who signs in. The password is kept
/// only as its bcrypt hash; an administrator may do everything, anyone else
/// what their own feeds and their spaces' roles allow.
public struct PersonRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    /// What they sign in with: lower-case letters, digits, dots, dashes, underscores.
    public var login: String
    public var displayName: String
    public var passwordHash: String?
    /// Their language's code; nil for the browser's.
    public var language: String?
    public var isAdmin: Bool
    /// When an administrator disabled them: their tokens and sessions stop at once.
    public var disabledAt: Date?
    public var createdAt: Date
    /// Which of their web-app sessions are valid: a session keeps the value it
    /// began under, and a new random one (a new password, "Sign out
    /// everywhere") ends every older session on every replica. Nil until the first.
    public var sessionEpoch: String?
    /// Their second factor's TOTP secret, sealed under the server's secrets
    /// key (as source logins are); nil when they sign in with a password alone.
    public var totpSecret: String?
    /// The last TOTP time step accepted: a code is good once (schema v16).
    public var totpLastStep: Int64?
    /// Their unused recovery codes' hashes, while they have a second factor.
    public var recoveryCodes: RecoveryCodeHashes?

    public init(id: Int64? = nil, login: String, displayName: String, passwordHash: String?, language: String? = nil, isAdmin: Bool = false,
                disabledAt: Date? = nil, createdAt: Date, sessionEpoch: String? = nil, totpSecret: String? = nil, totpLastStep: Int64? = nil,
                recoveryCodes: RecoveryCodeHashes? = nil) {
        self.id = id
        self.login = login
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.language = language
        self.isAdmin = isAdmin
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.sessionEpoch = sessionEpoch
        self.totpSecret = totpSecret
        self.totpLastStep = totpLastStep
        self.recoveryCodes = recoveryCodes
    }

    /// Whether signing in asks for a second factor's code.
    public var hasSecondFactor: Bool { totpSecret != nil }

    /// A login as typed, as it is kept: without surrounding spaces, in lower case.
    public static func normalizedLogin(_ typed: String) -> String {
        typed.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A login people can type and URLs can carry: 1 to 64 of a–z, 0–9, `.`, `-`, `_`, starting with a letter or digit.
    public static func isValidLogin(_ login: String) -> Bool {
        guard let first = login.utf8.first, login.utf8.count <= 64 else { return false }
        func allowed(_ byte: UInt8) -> Bool { (97...122).contains(byte) || (48...57).contains(byte) }
        return allowed(first) && login.utf8.allSatisfy { allowed($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}

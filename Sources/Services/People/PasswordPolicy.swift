/// What a password must be, and how hard its hash is to compute. Only a
/// bcrypt hash is ever kept (`PasswordHashing`).
public enum PasswordPolicy {
    /// bcrypt reads at most 72 bytes; longer passwords would be silently cut.
    public static let maxBytes = 72
    public static let minCharacters = 10

    public struct Rejected: Error, CustomStringConvertible {
        public enum Reason: Sendable { case tooShort, tooLong }
        public var reason: Reason
        public var description: String {
            switch reason {
            case .tooShort: "the password must have at least \(minCharacters) characters"
            case .tooLong: "the password must be at most \(maxBytes) bytes (bcrypt ignores the rest)"
            }
        }
    }

    /// Checks a new password's length; the message is what a person is shown.
    public static func check(_ password: String) throws(Rejected) {
        guard password.count >= minCharacters else { throw Rejected(reason: .tooShort) }
        guard password.utf8.count <= maxBytes else { throw Rejected(reason: .tooLong) }
    }

    /// bcrypt's work factor: about a quarter of a second a check in a release
    /// build. Tests lower it: they check many passwords in a debug build.
    public static let cost: UInt8 = 12
}

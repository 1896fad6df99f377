import CountdownStore
import Foundation
import HummingbirdBcrypt

/// The owner's password for the web app: only a bcrypt hash (cost 12) is kept,
/// in the store's settings, so every replica on one store shares it. Until one
/// is set, `tminus serve` prints a one-time setup link; `tminus password` sets
/// it from a terminal instead.
public enum OwnerPassword {
    /// bcrypt reads at most 72 bytes; longer passwords would be silently cut.
    public static let maxBytes = 72
    public static let minCharacters = 10

    public struct Rejected: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks a new password's length; the message is what a person is shown.
    public static func check(_ password: String) throws(Rejected) {
        guard password.count >= minCharacters else { throw Rejected(description: "the password must have at least \(minCharacters) characters") }
        guard password.utf8.count <= maxBytes else { throw Rejected(description: "the password must be at most \(maxBytes) bytes (bcrypt ignores the rest)") }
    }

    /// bcrypt's work factor: about a quarter of a second a check in a release build.
    public static let cost: UInt8 = 12

    /// Hashes and stores `password`; any setup link stops working, and every
    /// signed-in session ends (`SessionEpoch`). `cost` is
    /// lowered only by tests, which check many passwords in a debug build.
    public static func set(_ password: String, in service: CountdownService, cost: UInt8 = OwnerPassword.cost) async throws {
        try check(password)
        try await service.setOwnerPassword(hash: try await PasswordHashing.hash(password, cost: cost))
    }

    /// Asked before anyone has signed in: as the server itself.
    public static func isSet(in service: CountdownService) async throws -> Bool {
        try await service.acting(as: .system).setting(.ownerPasswordHash) != nil
    }

    /// True when `password` is the owner's. bcrypt takes about a quarter of a
    /// second on purpose, so it runs on a thread of its own, one at a time (`PasswordHashing`).
    package static func verify(_ password: String, in service: CountdownService) async throws -> Bool {
        guard password.utf8.count <= maxBytes, let hash = try await service.acting(as: .system).setting(.ownerPasswordHash) else { return false }
        return try await PasswordHashing.verify(password, hash: hash)
    }

    /// A fresh one-time setup token when no password is set (its hash replaces
    /// any earlier one); nil when the owner already has a password.
    package static func issueSetupToken(in service: CountdownService) async throws -> String? {
        let token = Secret.generate(bytes: 24)
        return try await service.keepSetupToken(hash: Secret.hash(token)) ? token : nil
    }

    package static func acceptsSetupToken(_ token: String, in service: CountdownService) async throws -> Bool {
        guard try await !isSet(in: service), let hash = try await service.acting(as: .system).setting(.ownerSetupTokenHash) else { return false }
        return Secret.constantTimeEquals(Secret.hash(token), hash)
    }
}

import CountdownStore
import Foundation

/// The first account: until anyone has one, `tminus serve` offers a one-time
/// setup link (only its hash is kept) that makes the first administrator;
/// `tminus password` does the same from a terminal.
extension CountdownService {
    /// True while nobody has an account. Asked before anyone signs in: as the server.
    public func needsFirstAccount() async throws -> Bool {
        try await store.read { try await $0.personRows(nil).isEmpty }
    }

    /// A fresh one-time setup link's secret (its hash replaces any earlier
    /// one's), or nil when someone already has an account.
    public func issueSetupLink() async throws -> String? {
        try await authorize(.administer)
        let secret = Secret.generate(bytes: 24)
        return try await transaction { tx in
            guard try await tx.personRows(nil).isEmpty else { return nil }
            try await tx.setSetting(.setupTokenHash, to: Secret.hash(secret))
            return secret
        }
    }

    /// Whether `secret` is the setup link's, and nobody has an account yet.
    public func acceptsSetupLink(_ secret: String) async throws -> Bool {
        try await store.read { reader in
            guard try await reader.personRows(nil).isEmpty, let hash = try await reader.setting(.setupTokenHash) else { return false }
            return Secret.constantTimeEquals(Secret.hash(secret), hash)
        }
    }

    /// Makes the first administrator through the setup link (`secret`), which
    /// then stops working; refused once anyone has an account.
    public func createFirstAccount(setupLink secret: String, login: String, displayName: String?, password: String,
                                   cost: UInt8 = PasswordPolicy.cost) async throws -> SignedInPerson {
        let hash = try await newPerson(login: login, password: password, cost: cost)
        return try await transaction { tx in
            guard try await tx.personRows(nil).isEmpty, let kept = try await tx.setting(.setupTokenHash),
                  Secret.constantTimeEquals(Secret.hash(secret), kept) else {
                throw StoreError.invalid("this setup link has been used or replaced")
            }
            try await tx.setSetting(.setupTokenHash, to: nil)
            let person = try await Self.savePerson(login: login, displayName: displayName, hash: hash, isAdmin: true, tx)
            return SignedInPerson(person, id: try person.savedID())
        }
    }

    /// Checks a new person's login and password, and hashes the password.
    func newPerson(login: String, password: String, cost: UInt8) async throws -> String {
        guard PersonRecord.isValidLogin(login) else {
            throw StoreError.invalid("'\(login)' is not a valid login: use 1 to 64 lower-case letters, digits, dots, dashes and underscores")
        }
        try PasswordPolicy.check(password)
        return try await passwords.hash(password, cost: cost)
    }
}

import CountdownStore
import Foundation

/// What a one-time link opens: an invitation to make an account (into a
/// space with a role, or none), or a new password for a person who forgot
/// theirs. Links go by no e-mail: an administrator passes them on. Only the
/// secret's hash is kept, as an expiring entry (where sessions live), so a
/// copy of the database opens none; using one deletes it in the same
/// transaction that makes the account or sets the password.
public struct OneTimeLink: Codable, Sendable, Equatable {
    public enum Purpose: Codable, Sendable, Equatable {
        /// Makes a person; with a space, its member in `role`.
        case invitation(space: String?, role: SpaceRole?)
        /// Sets person `id`'s password (`login` is for the page that asks for it).
        case reset(personId: Int64, login: String)
    }

    public var purpose: Purpose
    /// Who made it, as the history names them.
    public var madeBy: String
    /// The person who made it, when a person did: an invitation opens only
    /// while they may still make it (issue #59: a disabled owner's invitation
    /// still made a new owner). Nil for the operator, and for links kept before.
    public var madeByPerson: Int64?
    public var expiresAt: Date

    /// Invitations and reset links last a week.
    public static let lifetime: TimeInterval = 7 * 86_400

    public init(purpose: Purpose, madeBy: String, madeByPerson: Int64? = nil, expiresAt: Date) {
        self.purpose = purpose
        self.madeBy = madeBy
        self.madeByPerson = madeByPerson
        self.expiresAt = expiresAt
    }

    /// Where the entry is kept: the secret, prefixed, then hashed by the store.
    static func key(_ secret: String) -> StoreKey { .entry(keyHash: keyHash(secret)) }
    static func keyHash(_ secret: String) -> String { Secret.hash("link:" + secret) }

    /// The secret's form, so that a path that cannot be one is refused without a read.
    public static func isPlausible(_ secret: String) -> Bool {
        (16...64).contains(secret.utf8.count) && Base64URL.decode(secret) != nil
    }
}

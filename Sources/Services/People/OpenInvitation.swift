import CountdownStore
import Foundation

/// An invitation not yet used, as its maker and the people who may revoke it
/// see it: never its secret (only the secret's hash is kept), but an id to
/// revoke it by, where it leads, who made it and until when (issue #59, 9:
/// there was no way to list or revoke open invitations).
public struct OpenInvitation: Codable, Sendable, Equatable {
    /// The first 16 hex digits of the kept link's key: shown, and typed back to revoke it.
    public var id: String
    public var space: String?
    public var role: SpaceRole?
    public var madeBy: String
    public var madeByPerson: Int64?
    public var expiresAt: Date
    /// The key the link itself is kept under, to delete it by: the hash of its secret, which opens nothing.
    var keyHash: String

    /// The longest list kept: more open invitations at once are refused, so the list stays one small read.
    public static let limit = 500

    init(keyHash: String, link: OneTimeLink) {
        self.id = String(keyHash.prefix(16))
        if case .invitation(let space, let role) = link.purpose {
            self.space = space
            self.role = role
        }
        self.madeBy = link.madeBy
        self.madeByPerson = link.madeByPerson
        self.expiresAt = link.expiresAt
        self.keyHash = keyHash
    }

    /// Whether `id` could name one: 16 hex digits, so that anything else is answered without a read.
    public static func isPlausible(id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// The open invitations, kept as one entry beside the links: a link is kept
/// under its secret's hash alone, so nothing else could find it again. Written
/// in the transaction that makes, uses or revokes one; expired ones are
/// dropped on every write.
enum InvitationIndex {
    static let key = StoreKey.entry(keyHash: Secret.hash("links:open-invitations"))

    static func read(_ reader: any StoreReader, now: Date) async throws -> [OpenInvitation] {
        guard let kept = try await reader.value(for: key), kept.isLive(at: now),
              let list = try? JSONDecoder().decode([OpenInvitation].self, from: kept.bytes) else { return [] }
        return list.filter { $0.expiresAt > now }
    }

    static func write(_ list: [OpenInvitation], _ tx: any StoreTransaction) async throws {
        guard let last = list.map(\.expiresAt).max() else {
            try await tx.setValue(nil, for: key)
            return
        }
        try await tx.setValue(PersistedValue(bytes: try JSONEncoder().encode(list), expiresAt: last), for: key)
    }

    /// Adds one, refusing the 501st.
    static func add(_ invitation: OpenInvitation, _ tx: any StoreTransaction) async throws {
        var list = try await read(tx, now: tx.now)
        guard list.count < OpenInvitation.limit else {
            throw StoreError.invalid("\(OpenInvitation.limit) invitations are open: revoke some (tminus users invitations) before making more")
        }
        list.append(invitation)
        try await write(list, tx)
    }

    /// Removes the one kept under `keyHash` (used or revoked), if listed.
    static func remove(keyHash: String, _ tx: any StoreTransaction) async throws {
        let list = try await read(tx, now: tx.now)
        let rest = list.filter { $0.keyHash != keyHash }
        if rest.count != list.count { try await write(rest, tx) }
    }
}

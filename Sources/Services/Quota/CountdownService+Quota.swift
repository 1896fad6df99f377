import CountdownStore
import Foundation

/// Storage quotas (issue #59, 14): the setting, what an owner uses, and the
/// step every growing write ends with.
extension CountdownService {
    /// The quota every person and space has (the standard one until set).
    public func storageQuota() async throws -> StorageQuota {
        try await store.read { try await Self.quota($0) }
    }

    /// Sets the quota (an administrator). Owners already over it keep what
    /// they have, and may delete and shrink; only growth is refused.
    public func setStorageQuota(_ quota: StorageQuota) async throws {
        try await authorize(.administer)
        guard quota.countdowns >= 0, quota.megabytes >= 0, quota.images >= 0 else {
            throw StoreError.invalid("a quota is a number of countdowns, megabytes and images, each 0 or more")
        }
        let bytes = try JSONEncoder().encode(quota)
        try await transaction { tx in try await tx.setSetting(.storageQuota, to: String(decoding: bytes, as: UTF8.self)) }
    }

    /// What the signed-in person's own feeds (those in no space) hold, with the quota.
    public func myUsage() async throws -> (usage: StorageUsage, quota: StorageQuota) {
        guard case .person(let me) = principal else { throw StoreError.invalid("only a person has a quota of their own") }
        return try await store.read { reader in (try await reader.usage(of: .person(me.id)), try await Self.quota(reader)) }
    }

    static func quota(_ reader: any StoreReader) async throws -> StorageQuota {
        guard let text = try await reader.setting(.storageQuota),
              let quota = try? JSONDecoder().decode(StorageQuota.self, from: Data(text.utf8)) else { return .standard }
        return quota
    }
}

extension StoreTransaction {
    /// Refuses, changing nothing, when the feed's owner (its space, or else its
    /// person) would hold more than the quota allows after this transaction's
    /// writes. Called by the steps that add or grow countdowns, after writing:
    /// the transaction sees its own rows, and a refusal rolls them back.
    func checkQuota(feedId: Int64) async throws {
        guard let feed = try await feedRow(id: feedId, lock: false), let owner = StorageOwner(feed) else { return }
        let quota = try await CountdownService.quota(self)
        guard let excess = quota.excess(of: try await usage(of: owner)) else { return }
        // The owner is named only when refused: the usual write reads nothing more.
        let name = switch owner {
        case .space(let id): "the space '\(try await spaceRows(.id(id)).first?.slug ?? "\(id)")'"
        case .person(let id): "the feeds of \(try await personRows(.id(id)).first?.login ?? "person \(id)")"
        }
        throw StoreError.overQuota("\(name) \(excess)")
    }

    /// Refuses a countdown whose kept text is over `limit` bytes (413).
    func checkSize(_ rows: [CountdownRecord], limit: Int) throws {
        for row in rows where row.content.utf8.count > limit {
            throw StoreError.countdownTooLarge(title: row.title, bytes: row.content.utf8.count, limit: limit)
        }
    }
}

import CountdownStore
import Foundation

/// The web app's sessions live in expiring entries, stored under the SHA-256
/// of their key, so that a copy of the database opens no session.
extension CountdownService {
    /// Stores `bytes` under `key`. `expiresIn` nil keeps a live entry's expiry
    /// (what Hummingbird's `PersistDriver.set` promises); `onlyIfAbsent`
    /// refuses to replace a live entry and returns false instead.
    @discardableResult
    public func setPersistedValue(_ bytes: Data, for key: String, expiresIn: TimeInterval?, onlyIfAbsent: Bool = false) async throws -> Bool {
        try await authorize(.administer)
        let hash = Secret.hash(key)
        return try await transaction { tx in
            let existing = try await tx.value(for: .entry(keyHash: hash))
            let live = existing?.isLive(at: tx.now) ?? false
            if onlyIfAbsent && live { return false }
            let expiry = expiresIn.map { tx.now.addingTimeInterval($0) } ?? (live ? existing?.expiresAt : nil)
            try await tx.setValue(PersistedValue(bytes: bytes, expiresAt: expiry), for: .entry(keyHash: hash))
            return true
        }
    }

    /// The live value under `key`, or nil when there is none or it has expired.
    public func persistedValue(for key: String) async throws -> PersistedValue? {
        try await authorize(.administer)
        return try await store.persistedValue(for: key, now: clock())
    }

    public func removePersistedValue(for key: String) async throws {
        try await authorize(.administer)
        try await transaction { tx in try await tx.setValue(nil, for: .entry(keyHash: Secret.hash(key))) }
    }

    /// Deletes every entry whose time has passed; returns how many went.
    @discardableResult
    public func removeExpiredPersistedValues() async throws -> Int {
        try await authorize(.administer)
        return try await transaction { tx in try await tx.deleteExpiredEntries() }
    }
}

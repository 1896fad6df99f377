import Countdowns
import Foundation
import Synchronization

/// The primitives on a working copy of the tables; the store keeps the copy
/// when the use case returns, and drops it when it throws.
package final class InMemoryTransaction: StoreTransaction {
    package let now: Date
    package let limits: StoreLimits
    package let tables: Mutex<InMemoryTables>

    package init(_ tables: InMemoryTables, now: Date, limits: StoreLimits) {
        self.tables = Mutex(tables)
        self.now = now
        self.limits = limits
    }

    private func with<T>(_ body: (inout InMemoryTables) throws -> T) rethrows -> T {
        try tables.withLock { try body(&$0) }
    }

    // MARK: feeds

    package func feedRow(slug: String, lock: Bool) async throws -> FeedRecord? { with { $0.feed(slug: slug) } }

    package func insertFeed(_ row: FeedRecord) async throws -> FeedRecord {
        try with { tables in
            guard tables.feed(slug: row.slug) == nil else { throw StoreError.feedExists(row.slug) }
            var row = row
            let id = tables.nextId(.feed)
            row.id = id
            tables.feeds[id] = row
            return row
        }
    }

    package func updateFeed(_ row: FeedRecord) async throws {
        with { tables in
            guard let id = row.id, var stored = tables.feeds[id] else { return }
            let (createdAt, updatedAt, revision) = (stored.createdAt, stored.updatedAt, stored.revision)
            stored = row
            stored.createdAt = createdAt
            stored.updatedAt = updatedAt
            stored.revision = revision
            tables.feeds[id] = stored
        }
    }

    package func deleteFeed(slug: String) async throws -> Bool {
        with { tables in
            guard let id = tables.feed(slug: slug)?.id else { return false }
            tables.deleteFeed(id: id)
            return true
        }
    }

    package func storedFeed(_ row: FeedRecord) async throws -> StoredFeed { try with { try $0.stored(row) } }

    package func saveCategoryColors(feedId: Int64, colors: [String: String]) async throws {
        with { tables in
            for (name, color) in colors { tables.categories[tables.categoryId(feedId: feedId, name: name)]?.color = color }
        }
    }

    package func bumpRevision(feedId: Int64) async throws {
        with { tables in
            tables.feeds[feedId]?.revision += 1
            if let updated = tables.feeds[feedId]?.updatedAt { tables.feeds[feedId]?.updatedAt = max(updated, now) }
        }
    }

    // MARK: countdowns

    package func countdownRow(id: Int64, lock: Bool) async throws -> CountdownRecord? { with { $0.countdowns[id] } }
    package func sourceLocation(id: Int64) async throws -> String? { with { $0.sources[id]?.location } }

    package func countdownStates(feedId: Int64) async throws -> [String: CountdownState] {
        try with { tables in
            try tables.countdowns.values.filter { $0.feedId == feedId }.reduce(into: [:]) { states, row in
                states[row.uid] = CountdownState(id: try row.savedID(), content: row.content, sequence: row.sequence, lastModified: row.lastModified,
                                                 sourceId: row.sourceId)
            }
        }
    }

    package func hasUID(_ uid: String, feedId: Int64) async throws -> Bool {
        with { $0.countdowns.values.contains { $0.feedId == feedId && $0.uid == uid } }
    }

    package func insertCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        try with { tables in
            try rows.map { row in
                guard tables.feeds[row.feedId] != nil else { throw StoreError.invalid("no feed with id \(row.feedId)") }
                guard !tables.countdowns.values.contains(where: { $0.feedId == row.feedId && $0.uid == row.uid }) else {
                    throw StoreError.invalid("that already exists (feed \(row.feedId), UID \(row.uid))")
                }
                var row = row
                let id = tables.nextId(.countdown)
                row.id = id
                tables.countdowns[id] = row
                return id
            }
        }
    }

    package func updateCountdowns(_ rows: [CountdownRecord]) async throws {
        with { tables in
            for row in rows {
                guard let id = row.id, let stored = tables.countdowns[id] else { continue }
                var updated = row
                updated.createdAt = stored.createdAt
                tables.countdowns[id] = updated
            }
        }
    }

    package func deleteCountdowns(ids: [Int64]) async throws {
        with { tables in for id in ids { tables.deleteCountdown(id: id) } }
    }

    package func linkCategories(_ links: [CategoryLinks], feedId: Int64, replacing: Bool) async throws {
        with { tables in
            for link in links {
                let ids = Set(link.names.map { tables.categoryId(feedId: feedId, name: $0) })
                tables.links[link.countdownId] = replacing ? ids : (tables.links[link.countdownId] ?? []).union(ids)
            }
        }
    }

    package func categoryNames(countdownId: Int64) async throws -> [String] {
        with { tables in (tables.links[countdownId] ?? []).compactMap { tables.categories[$0]?.name }.sorted() }
    }

    // MARK: images

    package func putImage(digest: String, mimeType: String, bytes: Data) async throws {
        with { tables in
            if tables.images[digest] == nil { tables.images[digest] = InMemoryTables.Image(mimeType: mimeType, bytes: bytes, createdAt: now) }
        }
    }

    // MARK: sources

    package func sourceId(feedId: Int64, location: String) async throws -> Int64 {
        with { tables in
            if let found = tables.sources.first(where: { $0.value.feedId == feedId && $0.value.location == location }) { return found.key }
            let id = tables.nextId(.source)
            tables.sources[id] = SourceRecord(id: id, feedId: feedId, location: location)
            return id
        }
    }

    package func existingSourceId(feedId: Int64, location: String) async throws -> Int64? {
        with { $0.sources.first { $0.value.feedId == feedId && $0.value.location == location }?.key }
    }

    package func markSourceImported(id: Int64) async throws {
        with { tables in
            tables.sources[id]?.lastFetchedAt = now
            tables.sources[id]?.lastSuccessAt = now
            tables.sources[id]?.lastError = nil
        }
    }

    package func recordFetch(sourceId: Int64, etag: String?, lastModified: String?, error: String?, importedWith: String?) async throws {
        with { tables in
            guard var source = tables.sources[sourceId] else { return }
            source.lastFetchedAt = now
            source.leaseUntil = nil
            source.lastError = error
            if error == nil {
                source.lastSuccessAt = now
                source.etag = etag ?? source.etag
                source.lastModifiedHeader = lastModified ?? source.lastModifiedHeader
                source.importedWith = importedWith ?? source.importedWith
            }
            tables.sources[sourceId] = source
        }
    }

    package func leaseSource(id: Int64, until: Date) async throws -> Bool {
        with { tables in
            guard let source = tables.sources[id], source.leaseUntil.map({ $0 <= now }) ?? true else { return false }
            tables.sources[id]?.leaseUntil = until
            return true
        }
    }

    package func setSourceRules(sourceId: Int64, rules: String?) async throws -> Bool {
        with {
            guard $0.sources[sourceId]?.subscribed == true else { return false }
            $0.sources[sourceId]?.rules = rules
            $0.sources[sourceId]?.etag = nil
            $0.sources[sourceId]?.lastModifiedHeader = nil
            return true
        }
    }

    package func setSubscribed(sourceId: Int64, _ subscribed: Bool, login: String?) async throws {
        with {
            $0.sources[sourceId]?.subscribed = subscribed
            $0.sources[sourceId]?.login = login
        }
    }

    // MARK: tokens and settings

    package func insertToken(feedId: Int64, label: String, hash: String, visibility: Visibility) async throws -> Int64 {
        try with { tables in
            guard let slug = tables.feeds[feedId]?.slug else { throw StoreError.invalid("no feed with id \(feedId)") }
            let id = tables.nextId(.token)
            tables.tokens[id] = InMemoryTables.Token(info: FeedToken(id: id, feed: slug, label: label, visibility: visibility, createdAt: now),
                                                     feedId: feedId, hash: hash)
            return id
        }
    }

    package func revokeToken(id: Int64, feedId: Int64) async throws -> Bool {
        with { tables in
            guard let token = tables.tokens[id], token.feedId == feedId else { return false }
            tables.tokens[id]?.info.revokedAt = token.info.revokedAt ?? now
            return true
        }
    }

    package func recordTokenUse(_ uses: [Int64: Date]) async throws {
        with { tables in
            for (id, date) in uses {
                let last = tables.tokens[id]?.info.lastUsedAt ?? date
                tables.tokens[id]?.info.lastUsedAt = max(last, date)
            }
        }
    }

    package func setting(_ key: SettingKey) async throws -> String? { with { $0.settings[key.rawValue] } }
    package func setSetting(_ key: SettingKey, to value: String?) async throws { with { $0.settings[key.rawValue] = value } }

    // MARK: expiring entries

    package func persistEntry(keyHash: String) async throws -> PersistedValue? { with { $0.entries[keyHash] } }
    package func putPersistEntry(keyHash: String, _ value: PersistedValue) async throws { with { $0.entries[keyHash] = value } }
    package func deletePersistEntry(keyHash: String) async throws { with { $0.entries[keyHash] = nil } }

    package func deleteExpiredPersistEntries() async throws -> Int {
        with { tables in
            let expired = tables.entries.filter { $0.value.expiresAt.map { $0 <= now } ?? false }.keys
            for key in expired { tables.entries[key] = nil }
            return expired.count
        }
    }
}

import Countdowns
import Foundation
import Synchronization

/// The primitives on a working copy of the tables; the store keeps the copy
/// when a transaction's use case returns, and drops it when it throws (and
/// after every read).
package final class InMemoryTransaction: StoreTransaction {
    package let now: Date
    package let tables: Mutex<InMemoryTables>

    package init(_ tables: InMemoryTables, now: Date) {
        self.tables = Mutex(tables)
        self.now = now
    }

    private func with<T>(_ body: (inout InMemoryTables) throws -> T) rethrows -> T {
        try tables.withLock { try body(&$0) }
    }

    // MARK: reads

    package func feedRows(_ key: FeedKey?, lock: Bool) async throws -> [FeedRecord] {
        with { tables in
            switch key {
            case .slug(let slug)?: tables.feeds.values.filter { $0.slug == slug }
            case .id(let id)?: tables.feeds[id].map { [$0] } ?? []
            case nil: tables.feeds.values.sorted { $0.slug.utf8.lexicographicallyPrecedes($1.slug.utf8) }
            }
        }
    }

    package func feedTallies(feedId: Int64?) async throws -> [Int64: FeedTally] {
        with { tables in
            var tallies: [Int64: FeedTally] = [:]
            for row in tables.countdowns.values where feedId == nil || row.feedId == feedId { tallies[row.feedId, default: FeedTally()].countdownCount += 1 }
            for row in tables.categories.values where (feedId == nil || row.feedId == feedId) && row.color != nil {
                tallies[row.feedId, default: FeedTally()].categoryColors[row.name] = row.color
            }
            return tallies
        }
    }

    package func countdownRows(_ query: CountdownQuery) async throws -> [CountdownRecord] {
        with { tables in
            switch query {
            case .id(let id, _):
                return tables.countdowns[id].map { [$0] } ?? []
            case .feed(let feedId, let uid):
                return tables.countdowns.values.filter { $0.feedId == feedId && (uid == nil || $0.uid == uid) }.sorted {
                    if $0.startsOn != $1.startsOn { return $0.startsOn.utf8.lexicographicallyPrecedes($1.startsOn.utf8) }
                    if $0.title != $1.title { return $0.title.utf8.lexicographicallyPrecedes($1.title.utf8) }
                    return ($0.id ?? 0) < ($1.id ?? 0)
                }
            case .batch(let feedId, let after, let limit):
                return Array(tables.countdowns.values.filter { row in row.feedId == feedId && (after.map { $0.utf8.lexicographicallyPrecedes(row.uid.utf8) } ?? true) }
                    .sorted { $0.uid.utf8.lexicographicallyPrecedes($1.uid.utf8) }.prefix(max(0, limit)))
            case .uids(let feedId, let uids):
                let wanted = Set(uids)
                return tables.countdowns.values.filter { $0.feedId == feedId && wanted.contains($0.uid) }.sorted { $0.uid.utf8.lexicographicallyPrecedes($1.uid.utf8) }
            }
        }
    }

    package func sourceRows(feedId: Int64?, lock: Bool) async throws -> [SourceRecord] {
        with { tables in
            tables.sources.values.filter { feedId == nil || $0.feedId == feedId }
                .sorted { $0.feedId != $1.feedId ? $0.feedId < $1.feedId : $0.location.utf8.lexicographicallyPrecedes($1.location.utf8) }
        }
    }

    package func tokenRows(feedId: Int64?) async throws -> [TokenRecord] {
        with { tables in tables.tokens.values.filter { feedId == nil || $0.feedId == feedId }.sorted { ($0.id ?? 0) < ($1.id ?? 0) } }
    }

    package func value(for key: StoreKey) async throws -> PersistedValue? { with { $0.values[key] } }

    package func image(digest: String) async throws -> ImageRecord? { with { $0.images[digest] } }

    package func davNameRows(feedId: Int64, _ key: DavNameKey) async throws -> [DavNameRecord] {
        with { tables in
            let names = tables.davNames[feedId] ?? [:]
            let rows = switch key {
            case .name(let name): names.filter { $0.value == name }.map { DavNameRecord(feedId: feedId, uid: $0.key, name: $0.value) }
            case .uids(let uids): uids.compactMap { uid in names[uid].map { DavNameRecord(feedId: feedId, uid: uid, name: $0) } }
            }
            return rows.sorted { $0.uid < $1.uid }
        }
    }

    package func personalObjectRows(_ query: PersonalObjectQuery) async throws -> [PersonalObjectRecord] {
        with { tables in
            let uids = query.uids.map(Set.init)
            return tables.personalObjects.values
                .filter { $0.personId == query.personId && $0.feedId == query.feedId && (uids?.contains($0.uid) ?? true) && ($0.id ?? 0) > (query.after ?? 0) }
                .sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        }
    }

    package func davObjectRows(_ query: DavObjectQuery) async throws -> [DavObjectRecord] {
        with { tables in
            let kept = tables.davObjects[query.feedId] ?? [:]
            let uids = query.uids.map(Set.init)
            return kept.values.filter { uids?.contains($0.uid) ?? true }.filter { !query.undatedOnly || $0.isUndated }
                .sorted { $0.uid.utf8.lexicographicallyPrecedes($1.uid.utf8) }
                .map { row in
                    var listed = row
                    if !query.bodies { listed.body = nil }
                    return listed
                }
        }
    }

    package func changeRows(_ query: ChangeQuery) async throws -> [ChangeRecord] {
        with { tables in
            let feeds = query.feedIds.map(Set.init)
            let rows = tables.changes.values.filter { feeds?.contains($0.feedId) ?? true && ($0.id ?? 0) > (query.after ?? 0) }
                .sorted { query.newestFirst ? ($0.id ?? 0) > ($1.id ?? 0) : ($0.id ?? 0) < ($1.id ?? 0) }
            return Array(rows.prefix(max(0, query.limit)))
        }
    }

    package func usage(of owner: StorageOwner) async throws -> StorageUsage {
        with { tables in
            let feeds = Set(tables.feeds.values.filter { StorageOwner($0) == owner }.compactMap(\.id))
            var usage = tables.countdowns.values.filter { feeds.contains($0.feedId) }.reduce(into: StorageUsage()) { usage, row in
                usage.countdowns += 1
                usage.bytes += row.content.utf8.count
                if row.content.contains(StoredImage.scheme) { usage.images += 1 }
            }
            for feed in feeds {
                for object in (tables.davObjects[feed] ?? [:]).values {
                    usage.bytes += object.body?.utf8.count ?? 0
                    if object.isUndated { usage.countdowns += 1 }
                }
            }
            return usage
        }
    }

    package func changeStamp() async throws -> Int64? {
        with { $0.changeStamp }
    }

    package func personRows(_ key: PersonKey?) async throws -> [PersonRecord] {
        with { tables in
            switch key {
            case .id(let id)?: tables.people[id].map { [$0] } ?? []
            case .login(let login)?: tables.people.values.filter { $0.login == login }
            case nil: tables.people.values.sorted { $0.login.utf8.lexicographicallyPrecedes($1.login.utf8) }
            }
        }
    }

    package func spaceRows(_ key: SpaceKey?) async throws -> [SpaceRecord] {
        with { tables in
            switch key {
            case .id(let id)?: tables.spaces[id].map { [$0] } ?? []
            case .slug(let slug)?: tables.spaces.values.filter { $0.slug == slug }
            case nil: tables.spaces.values.sorted { $0.slug.utf8.lexicographicallyPrecedes($1.slug.utf8) }
            }
        }
    }

    package func memberRows(spaceId: Int64?, personId: Int64?) async throws -> [MemberRecord] {
        with { tables in
            tables.members.values.flatMap(\.values).filter { (spaceId == nil || $0.spaceId == spaceId) && (personId == nil || $0.personId == personId) }
                .sorted { ($0.spaceId, $0.personId) < ($1.spaceId, $1.personId) }
        }
    }

    package func personTokenRows(_ key: PersonTokenKey) async throws -> [PersonTokenRecord] {
        with { tables in
            switch key {
            case .hash(let hash): tables.personTokens.values.filter { $0.tokenHash == hash }
            case .person(let id): tables.personTokens.values.filter { $0.personId == id }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            }
        }
    }

    // MARK: writes

    /// Each table's checks (the unique keys and foreign keys the databases
    /// hold), then the row kept.
    package func save<Row: TableRow>(_ row: Row) async throws -> Row {
        let saved: any TableRow = switch row {
        case let row as FeedRecord: try saveFeed(row)
        case let row as CountdownRecord: try saveCountdown(row)
        case let row as SourceRecord: try saveSource(row)
        case let row as TokenRecord: try saveToken(row)
        case let row as PersonRecord: try savePerson(row)
        case let row as SpaceRecord: try saveSpace(row)
        case let row as PersonTokenRecord: try savePersonToken(row)
        case let row as ChangeRecord: saveChange(row)
        case let row as ImageRecord: try saveImage(row)
        default: throw StoreError.invalid("no \(Row.table.name) table in memory")
        }
        guard let saved = saved as? Row else { throw StoreError.invalid("a \(Row.table.name) row saved as another") }
        return saved
    }

    /// As the databases' foreign keys cascade, or set what named the row to NULL.
    package func delete<Row: TableRow>(_ type: Row.Type, ids: [Int64]) async throws {
        with { tables in
            for id in ids {
                switch type {
                case is FeedRecord.Type: tables.deleteFeed(id: id)
                case is CountdownRecord.Type: tables.deleteCountdown(id: id)
                case is PersonRecord.Type: tables.deletePerson(id: id)
                case is SpaceRecord.Type:
                    tables.spaces[id] = nil
                    tables.members[id] = nil
                    for (feedId, feed) in tables.feeds where feed.spaceId == id { tables.feeds[feedId]?.spaceId = nil }
                case is SourceRecord.Type:
                    tables.sources[id] = nil
                    for (countdownId, row) in tables.countdowns where row.sourceId == id { tables.countdowns[countdownId]?.sourceId = nil }
                case is TokenRecord.Type: tables.tokens[id] = nil
                case is PersonTokenRecord.Type: tables.personTokens[id] = nil
                case is ChangeRecord.Type: tables.changes[id] = nil
                default: tables.images = tables.images.filter { $0.value.id != id }
                }
            }
        }
    }

    private func saveFeed(_ row: FeedRecord) throws -> FeedRecord {
        try with { tables in
            guard !tables.feeds.values.contains(where: { $0.slug == row.slug && $0.id != row.id }) else { throw StoreError.feedExists(row.slug) }
            return tables.save(row, in: \.feeds, kind: .feed) { $0.id = $1 }
        }
    }

    package func saveCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        try rows.map { row in try saveCountdown(row).savedID() }
    }

    private func saveCountdown(_ row: CountdownRecord) throws -> CountdownRecord {
        try with { tables in
                guard tables.feeds[row.feedId] != nil else { throw StoreError.invalid("no feed with id \(row.feedId)") }
                guard !tables.countdowns.values.contains(where: { $0.feedId == row.feedId && $0.uid == row.uid && $0.id != row.id }) else {
                    throw StoreError.invalid("that already exists (feed \(row.feedId), UID \(row.uid))")
                }
                var row = row
                // A row's creation date never changes once written.
                if let id = row.id, let stored = tables.countdowns[id] {
                    row.createdAt = stored.createdAt
                    row.createdBy = stored.createdBy
                }
                return tables.save(row, in: \.countdowns, kind: .countdown) { $0.id = $1 }
        }
    }

    package func saveCategories(feedId: Int64, colors: [String: String], links: [CategoryLinks], replacing: Bool) async throws {
        with { tables in
            for (name, color) in colors { tables.categories[tables.categoryId(feedId: feedId, name: name)]?.color = color }
            for link in links {
                let ids = Set(link.names.map { tables.categoryId(feedId: feedId, name: $0) })
                tables.links[link.countdownId] = replacing ? ids : (tables.links[link.countdownId] ?? []).union(ids)
            }
        }
    }

    private func saveImage(_ row: ImageRecord) throws -> ImageRecord {
        try with { tables in
            guard tables.images[row.sha256].map({ $0.id == row.id }) ?? true else { throw StoreError.invalid("that already exists (image \(row.sha256))") }
            var row = row
            row.id = row.id ?? tables.nextId(.image)
            tables.images[row.sha256] = row
            return row
        }
    }

    private func saveSource(_ row: SourceRecord) throws -> SourceRecord {
        try with { tables in
            guard !tables.sources.values.contains(where: { $0.feedId == row.feedId && $0.location == row.location && $0.id != row.id }) else {
                throw StoreError.invalid("that already exists (feed \(row.feedId), source \(row.location))")
            }
            return tables.save(row, in: \.sources, kind: .source) { $0.id = $1 }
        }
    }

    private func saveToken(_ row: TokenRecord) throws -> TokenRecord {
        try with { tables in
            guard tables.feeds[row.feedId] != nil else { throw StoreError.invalid("no feed with id \(row.feedId)") }
            var used = row.id.flatMap { tables.tokens[$0] }
            used?.lastUsedAt = row.lastUsedAt
            if used != row { tables.changeStamp += 1 }
            return tables.save(row, in: \.tokens, kind: .token) { $0.id = $1 }
        }
    }

    package func setValue(_ value: PersistedValue?, for key: StoreKey) async throws {
        with { tables in
            if case .setting = key { tables.values[key] = value.map { PersistedValue(bytes: $0.bytes, expiresAt: nil) } } else { tables.values[key] = value }
        }
    }

    private func savePerson(_ row: PersonRecord) throws -> PersonRecord {
        try with { tables in
            guard !tables.people.values.contains(where: { $0.login == row.login && $0.id != row.id }) else {
                throw StoreError.invalid("that already exists (person \(row.login))")
            }
            return tables.save(row, in: \.people, kind: .person) { $0.id = $1 }
        }
    }


    package func relabelHistory(actor: String, as label: String) async throws {
        // The login alone, or followed by " via " and an app's label (what a calendar app changed).
        func relabelled(_ value: String?) -> String? {
            guard let value, value == actor || value.hasPrefix(actor + " via ") else { return value }
            return label + value.dropFirst(actor.count)
        }
        with { tables in
            for (id, row) in tables.countdowns {
                tables.countdowns[id]?.createdBy = relabelled(row.createdBy)
                tables.countdowns[id]?.changedBy = relabelled(row.changedBy)
            }
            for (id, row) in tables.changes { tables.changes[id]?.actor = relabelled(row.actor) ?? row.actor }
        }
    }

    package func saveDavName(_ row: DavNameRecord) async throws {
        try with { tables in
            guard tables.feeds[row.feedId] != nil else { throw StoreError.invalid("no feed with id \(row.feedId)") }
            tables.davNames[row.feedId] = (tables.davNames[row.feedId] ?? [:]).filter { $0.value != row.name || $0.key == row.uid }
            tables.davNames[row.feedId]?[row.uid] = row.name
        }
    }

    package func saveDavObject(_ row: DavObjectRecord) async throws {
        try with { tables in
            guard tables.feeds[row.feedId] != nil else { throw StoreError.invalid("no feed with id \(row.feedId)") }
            tables.davObjects[row.feedId, default: [:]][row.uid] = row
        }
    }

    package func savePersonalObject(_ row: PersonalObjectRecord) async throws -> PersonalObjectRecord {
        try with { tables in
            guard tables.feeds[row.feedId] != nil, tables.people[row.personId] != nil else { throw StoreError.invalid("no feed \(row.feedId) or person \(row.personId)") }
            tables.personalObjects = tables.personalObjects.filter { $0.value.personId != row.personId || $0.value.feedId != row.feedId || $0.value.uid != row.uid }
            var saved = row
            saved.id = tables.nextId(.personalObject)
            tables.personalObjects[saved.id!] = saved
            return saved
        }
    }

    package func deletePersonalObjects(feedId: Int64, uids: [String], personId: Int64?) async throws {
        let uids = Set(uids)
        with { tables in
            tables.personalObjects = tables.personalObjects.filter {
                !($0.value.feedId == feedId && uids.contains($0.value.uid) && (personId == nil || $0.value.personId == personId))
            }
        }
    }

    package func deleteDavObjects(feedId: Int64, uids: [String]) async throws {
        with { tables in
            for uid in uids { tables.davObjects[feedId]?[uid] = nil }
        }
    }

    /// A change is added with the next id (the log only ever grows at its end).
    private func saveChange(_ row: ChangeRecord) -> ChangeRecord {
        with { tables in
            var row = row
            let id = row.id ?? tables.nextId(.change)
            row.id = id
            tables.changes[id] = row
            return row
        }
    }

    private func saveSpace(_ row: SpaceRecord) throws -> SpaceRecord {
        try with { tables in
            guard !tables.spaces.values.contains(where: { $0.slug == row.slug && $0.id != row.id }) else {
                throw StoreError.invalid("that already exists (space \(row.slug))")
            }
            return tables.save(row, in: \.spaces, kind: .space) { $0.id = $1 }
        }
    }

    package func setMember(spaceId: Int64, personId: Int64, to row: MemberRecord?) async throws {
        try with { tables in
            guard tables.spaces[spaceId] != nil, tables.people[personId] != nil else {
                throw StoreError.invalid("no space \(spaceId) or person \(personId)")
            }
            tables.members[spaceId, default: [:]][personId] = row
        }
    }

    private func savePersonToken(_ row: PersonTokenRecord) throws -> PersonTokenRecord {
        try with { tables in
            guard tables.people[row.personId] != nil else { throw StoreError.invalid("no person with id \(row.personId)") }
            guard !tables.personTokens.values.contains(where: { $0.tokenHash == row.tokenHash && $0.id != row.id }) else {
                throw StoreError.invalid("that already exists (a token with that hash)")
            }
            var used = row.id.flatMap { tables.personTokens[$0] }
            used?.lastUsedAt = row.lastUsedAt
            if used != row { tables.changeStamp += 1 }
            return tables.save(row, in: \.personTokens, kind: .personToken) { $0.id = $1 }
        }
    }

    package func deleteExpiredEntries() async throws -> Int {
        with { tables in
            let expired = tables.values.filter { key, value in
                if case .entry = key { return value.expiresAt.map { $0 <= now } ?? false }
                return false
            }.keys
            for key in expired { tables.values[key] = nil }
            return expired.count
        }
    }
}

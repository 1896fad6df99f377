import Countdowns
import CountdownStore
import Foundation
import GRDB

/// The primitives on SQLite. In a transaction each one is a short access to
/// the writer connection, inside the transaction `SQLiteCountdownStore.transaction`
/// began there (its turn keeps every other write off the connection until
/// COMMIT or ROLLBACK); in a read, each one reads on one of the pool's reader
/// connections, never waiting for the writer. Statements are cached and
/// prepared once per connection.
package struct SQLiteTransaction: StoreTransaction {
    package let pool: DatabasePool
    package let now: Date
    /// On the writer, in its transaction; else a read.
    package let writes: Bool

    func on<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        writes ? try await pool.writeWithoutTransaction(body) : try await pool.read(body)
    }

    // MARK: reads

    package func feedRows(_ key: FeedKey?, lock: Bool) async throws -> [FeedRecord] {
        try await on { db in
            switch key {
            case .slug(let slug)?: try FeedRecord.filter(FeedRecord.Columns.slug == slug).fetchAll(db)
            case .id(let id)?: try FeedRecord.filter(key: id).fetchAll(db)
            case nil: try FeedRecord.order(FeedRecord.Columns.slug).fetchAll(db)
            }
        }
    }

    package func feedTallies(feedId: Int64?) async throws -> [Int64: FeedTally] {
        try await on { db in
            var tallies: [Int64: FeedTally] = [:]
            let arguments: StatementArguments = feedId.map { [$0] } ?? []
            // The (feedId, uid) index counts each feed's rows without reading one.
            for row in try Row.fetchAll(db, sql: "SELECT feedId, count(*) FROM countdown\(feedId == nil ? "" : " WHERE feedId = ?") GROUP BY feedId",
                                           arguments: arguments) {
                tallies[row[0], default: FeedTally()].countdownCount = row[1]
            }
            for row in try Row.fetchAll(db, sql: "SELECT feedId, name, color FROM category WHERE color IS NOT NULL\(feedId == nil ? "" : " AND feedId = ?")",
                                           arguments: arguments) {
                tallies[row[0], default: FeedTally()].categoryColors[row[1]] = row[2]
            }
            return tallies
        }
    }

    package func countdownRows(_ query: CountdownQuery) async throws -> [CountdownRecord] {
        try await on { db in
            switch query {
            case .id(let id, _):
                return try CountdownRecord.filter(key: id).fetchAll(db)
            case .feed(let feedId, let uid):
                var request = CountdownRecord.filter(CountdownRecord.Columns.feedId == feedId)
                if let uid { request = request.filter(CountdownRecord.Columns.uid == uid) }
                return try request.order(CountdownRecord.Columns.startsOn, CountdownRecord.Columns.title, CountdownRecord.Columns.id).fetchAll(db)
            case .batch(let feedId, let after, let limit):
                // The unique (feedId, uid) index reads them in order; SQLite compares text by its bytes.
                var request = CountdownRecord.filter(CountdownRecord.Columns.feedId == feedId)
                if let after { request = request.filter(CountdownRecord.Columns.uid > after) }
                return try request.order(CountdownRecord.Columns.uid).limit(max(0, limit)).fetchAll(db)
            case .uids(let feedId, let uids):
                return try CountdownRecord.filter(CountdownRecord.Columns.feedId == feedId && uids.contains(CountdownRecord.Columns.uid))
                    .order(CountdownRecord.Columns.uid).fetchAll(db)
            }
        }
    }

    package func sourceRows(feedId: Int64?, lock: Bool) async throws -> [SourceRecord] {
        try await on { db in
            var request = SourceRecord.order(SourceRecord.Columns.feedId, SourceRecord.Columns.location)
            if let feedId { request = request.filter(SourceRecord.Columns.feedId == feedId) }
            return try request.fetchAll(db)
        }
    }

    package func tokenRows(feedId: Int64?) async throws -> [TokenRecord] {
        try await on { db in
            var request = TokenRecord.order(TokenRecord.Columns.id)
            if let feedId { request = request.filter(TokenRecord.Columns.feedId == feedId) }
            return try request.fetchAll(db)
        }
    }

    package func value(for key: StoreKey) async throws -> PersistedValue? {
        try await on { db in
            switch key {
            case .setting(let setting):
                try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [setting.rawValue])
                    .map { PersistedValue(bytes: Data($0.utf8), expiresAt: nil) }
            case .entry(let keyHash):
                try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == keyHash).fetchOne(db)
                    .map { PersistedValue(bytes: $0.value, expiresAt: $0.expiresAt) }
            }
        }
    }

    package func image(digest: String) async throws -> ImageRecord? {
        try await on { db in try ImageRecord.filter(ImageRecord.Columns.sha256 == digest).fetchOne(db) }
    }

    package func davNameRows(feedId: Int64, _ key: DavNameKey) async throws -> [DavNameRecord] {
        try await on { db in
            let request = DavNameRecord.filter(DavNameRecord.Columns.feedId == feedId)
            return switch key {
            case .name(let name): try request.filter(DavNameRecord.Columns.name == name).fetchAll(db)
            case .uids(let uids): try request.filter(uids.contains(DavNameRecord.Columns.uid)).order(DavNameRecord.Columns.uid).fetchAll(db)
            }
        }
    }

    package func davObjectRows(_ query: DavObjectQuery) async throws -> [DavObjectRecord] {
        try await on { db in
            var request = DavObjectRecord.filter(DavObjectRecord.Columns.feedId == query.feedId)
            if let uids = query.uids { request = request.filter(uids.contains(DavObjectRecord.Columns.uid)) }
            if query.undatedOnly { request = request.filter(DavObjectRecord.Columns.basis == nil) }
            if !query.bodies { request = request.select(DavObjectRecord.withoutBody) }
            return try request.order(DavObjectRecord.Columns.uid).fetchAll(db)
        }
    }

    package func personalObjectRows(_ query: PersonalObjectQuery) async throws -> [PersonalObjectRecord] {
        try await on { db in
            var request = PersonalObjectRecord.filter(PersonalObjectRecord.Columns.personId == query.personId && PersonalObjectRecord.Columns.feedId == query.feedId)
            if let uids = query.uids { request = request.filter(uids.contains(PersonalObjectRecord.Columns.uid)) }
            if let after = query.after { request = request.filter(PersonalObjectRecord.Columns.id > after) }
            return try request.order(PersonalObjectRecord.Columns.id).fetchAll(db)
        }
    }

    package func changeRows(_ query: ChangeQuery) async throws -> [ChangeRecord] {
        try await on { db in
            var request = ChangeRecord.all()
            if let feedIds = query.feedIds { request = request.filter(feedIds.contains(ChangeRecord.Columns.feedId)) }
            if let after = query.after { request = request.filter(ChangeRecord.Columns.id > after) }
            return try request.order(query.newestFirst ? ChangeRecord.Columns.id.desc : ChangeRecord.Columns.id.asc).limit(max(0, query.limit)).fetchAll(db)
        }
    }

    package func usage(of owner: StorageOwner) async throws -> StorageUsage {
        let (scope, id): (String, Int64) = switch owner {
        case .space(let id): ("feed.spaceId = ?", id)
        case .person(let id): ("feed.personId = ? AND feed.spaceId IS NULL", id)
        }
        return try await on { db in
            // Bytes, not characters: length() of a BLOB. An image is referenced by its scheme in the text.
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*) AS countdowns, coalesce(sum(length(CAST(content AS BLOB))), 0) AS bytes,
                    coalesce(sum(instr(content, ?) > 0), 0) AS images
                FROM countdown JOIN feed ON feed.id = countdown.feedId WHERE \(scope)
                """, arguments: [StoredImage.scheme, id])
            // Objects kept as written count too: their text, and each task without a date as a countdown.
            let kept = try Row.fetchOne(db, sql: """
                SELECT coalesce(sum(davObject.basis IS NULL), 0) AS undated, coalesce(sum(length(CAST(body AS BLOB))), 0) AS bytes
                FROM davObject JOIN feed ON feed.id = davObject.feedId WHERE \(scope)
                """, arguments: [id])
            let countdowns: Int = row?["countdowns"] ?? 0, undated: Int = kept?["undated"] ?? 0
            let bytes: Int = row?["bytes"] ?? 0, keptBytes: Int = kept?["bytes"] ?? 0
            return StorageUsage(countdowns: countdowns + undated, bytes: bytes + keptBytes, images: row?["images"] ?? 0)
        }
    }

    package func changeStamp() async throws -> Int64? {
        try await on { db in try Int64.fetchOne(db, sql: "SELECT value FROM changeStamp") }
    }

    package func personRows(_ key: PersonKey?) async throws -> [PersonRecord] {
        try await on { db in
            switch key {
            case .id(let id)?: try PersonRecord.filter(key: id).fetchAll(db)
            case .login(let login)?: try PersonRecord.filter(PersonRecord.Columns.login == login).fetchAll(db)
            case nil: try PersonRecord.order(PersonRecord.Columns.login).fetchAll(db)
            }
        }
    }

    package func spaceRows(_ key: SpaceKey?) async throws -> [SpaceRecord] {
        try await on { db in
            switch key {
            case .id(let id)?: try SpaceRecord.filter(key: id).fetchAll(db)
            case .slug(let slug)?: try SpaceRecord.filter(SpaceRecord.Columns.slug == slug).fetchAll(db)
            case nil: try SpaceRecord.order(SpaceRecord.Columns.slug).fetchAll(db)
            }
        }
    }

    package func memberRows(spaceId: Int64?, personId: Int64?) async throws -> [MemberRecord] {
        try await on { db in
            var request = MemberRecord.order(MemberRecord.Columns.spaceId, MemberRecord.Columns.personId)
            if let spaceId { request = request.filter(MemberRecord.Columns.spaceId == spaceId) }
            if let personId { request = request.filter(MemberRecord.Columns.personId == personId) }
            return try request.fetchAll(db)
        }
    }

    package func personTokenRows(_ key: PersonTokenKey) async throws -> [PersonTokenRecord] {
        try await on { db in
            switch key {
            case .hash(let hash): try PersonTokenRecord.filter(PersonTokenRecord.Columns.tokenHash == hash).fetchAll(db)
            case .person(let id): try PersonTokenRecord.filter(PersonTokenRecord.Columns.personId == id).order(PersonTokenRecord.Columns.id).fetchAll(db)
            }
        }
    }

    // MARK: writes

    package func save<Row: TableRow>(_ row: Row) async throws -> Row {
        let table = Row.table
        let cells = try RowCoding.cells(of: row, in: table)
        return try await on { db in
            var names: [String] = [], values: [DatabaseValue] = []
            for (column, cell) in zip(table.columns, cells) where column.name != "id" && (row.id == nil || !Row.writtenOnce.contains(column.name)) {
                names.append(column.name)
                values.append(SQLiteCountdownStore.databaseValue(cell))
            }
            var saved = row
            if let id = row.id {
                try db.cachedStatement(sql: "UPDATE \(table.name) SET \(names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?")
                    .execute(arguments: StatementArguments(values + [id.databaseValue]))
                guard db.changesCount == 1 else { throw StoreError.invalid("no \(table.name) row \(id) to write") }
            } else {
                try db.cachedStatement(sql: "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))")
                    .execute(arguments: StatementArguments(values))
                saved.id = db.lastInsertedRowID
            }
            return saved
        }
    }

    package func delete<Row: TableRow>(_ type: Row.Type, ids: [Int64]) async throws {
        try await on { db in
            for id in ids { try db.cachedStatement(sql: "DELETE FROM \(Row.table.name) WHERE id = ?").execute(arguments: [id]) }
        }
    }

    package func saveCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        try await on { db in
            try rows.map { row in
                var row = row
                if let id = row.id {
                    try db.cachedStatement(sql: """
                        UPDATE countdown SET feedId = ?, sourceId = ?, uid = ?, title = ?, kind = ?, status = ?, startsOn = ?,
                            sequence = ?, lastModified = ?, content = ?, changedBy = ?, placeRank = ?, placeFrom = ?, placeCheckAt = ?,
                            changedByPerson = ? WHERE id = ?
                        """).execute(arguments: [row.feedId, row.sourceId, row.uid, row.title, row.kind, row.status, row.startsOn,
                                                 row.sequence, row.lastModified, row.content, row.changedBy, row.placeRank, row.placeFrom,
                                                 row.placeCheckAt, row.changedByPerson, id])
                    return id
                }
                try row.insertPrepared(db)
                return try row.savedID()
            }
        }
    }

    package func saveCategories(feedId: Int64, colors: [String: String], links: [CategoryLinks], replacing: Bool) async throws {
        try await on { db in
            try CategoryRows.saveColors(db, feedId: feedId, colors: colors)
            var linker = CategoryRows.Linker(feedId: feedId)
            for link in links { try linker.link(db, countdownId: link.countdownId, names: link.names, replacing: replacing) }
        }
    }

    package func setValue(_ value: PersistedValue?, for key: StoreKey) async throws {
        try await on { db in
            switch (key, value) {
            case (.setting(let setting), let value?):
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [setting.rawValue, String(decoding: value.bytes, as: UTF8.self)])
            case (.setting(let setting), nil):
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [setting.rawValue])
            case (.entry(let keyHash), let value?):
                try PersistEntryRecord(keyHash: keyHash, value: value.bytes, expiresAt: value.expiresAt).save(db)
            case (.entry(let keyHash), nil):
                _ = try PersistEntryRecord.deleteOne(db, key: keyHash)
            }
        }
    }

    package func deleteExpiredEntries() async throws -> Int {
        try await on { [now] db in try PersistEntryRecord.filter(PersistEntryRecord.Columns.expiresAt <= now).deleteAll(db) }
    }

    package func relabelHistory(actor: String, as label: String) async throws {
        try await on { db in
            // The login alone, or followed by " via " and an app's label (what a calendar app changed).
            for (table, column) in [("countdown", "createdBy"), ("countdown", "changedBy"), ("countdownChange", "actor")] {
                try db.execute(sql: """
                    UPDATE \(table) SET \(column) = :label || substr(\(column), length(:actor) + 1)
                    WHERE \(column) = :actor OR substr(\(column), 1, length(:actor) + 5) = :actor || ' via '
                    """, arguments: ["label": label, "actor": actor])
            }
        }
    }

    package func saveDavName(_ row: DavNameRecord) async throws {
        try await on { db in
            try db.execute(sql: "DELETE FROM davName WHERE feedId = ? AND name = ? AND uid <> ?", arguments: [row.feedId, row.name, row.uid])
            try row.upsert(db)
        }
    }

    package func saveDavObject(_ row: DavObjectRecord) async throws {
        try await on { db in try row.upsert(db) }
    }

    package func deleteDavObjects(feedId: Int64, uids: [String]) async throws {
        guard !uids.isEmpty else { return }
        try await on { db in
            _ = try DavObjectRecord.filter(DavObjectRecord.Columns.feedId == feedId && uids.contains(DavObjectRecord.Columns.uid)).deleteAll(db)
        }
    }

    package func savePersonalObject(_ row: PersonalObjectRecord) async throws -> PersonalObjectRecord {
        try await on { db in
            try deletePersonal(db, feedId: row.feedId, uids: [row.uid], personId: row.personId)
            var saved = row
            saved.id = nil
            try saved.insert(db)
            return saved
        }
    }

    package func deletePersonalObjects(feedId: Int64, uids: [String], personId: Int64?) async throws {
        guard !uids.isEmpty else { return }
        try await on { db in try deletePersonal(db, feedId: feedId, uids: uids, personId: personId) }
    }

    private func deletePersonal(_ db: Database, feedId: Int64, uids: [String], personId: Int64?) throws {
        var request = PersonalObjectRecord.filter(PersonalObjectRecord.Columns.feedId == feedId && uids.contains(PersonalObjectRecord.Columns.uid))
        if let personId { request = request.filter(PersonalObjectRecord.Columns.personId == personId) }
        _ = try request.deleteAll(db)
    }

    package func setMember(spaceId: Int64, personId: Int64, to row: MemberRecord?) async throws {
        try await on { db in
            if let row { try row.upsert(db) } else { _ = try MemberRecord.filter(MemberRecord.Columns.spaceId == spaceId && MemberRecord.Columns.personId == personId).deleteAll(db) }
        }
    }
}

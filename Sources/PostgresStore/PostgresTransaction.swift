import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

/// The primitives on PostgreSQL: statements on the one pooled connection that
/// holds the transaction (or the read, a REPEATABLE READ snapshot). Rows a use
/// case reads before it writes them are locked (`FOR UPDATE`), so two
/// replicas writing one feed take turns; every write of a feed row sends
/// `NOTIFY`, delivered only if the transaction commits.
struct PostgresTransaction: StoreTransaction {
    let store: PostgresCountdownStore
    let connection: PostgresConnection
    let now: Date
    /// A read (`CountdownStore.read`): READ ONLY, where rows cannot be locked.
    var readOnly = false
    var logger: Logger { store.logger }

    // MARK: reads

    func feedRows(_ key: FeedKey?, lock: Bool) async throws -> [FeedRecord] {
        let table = FeedRecord.table
        return switch key {
        case .slug(let slug)?:
            try await store.select(FeedRecord.self, from: table, where: "slug = $1", PostgresBindings(slug), order: "id", lock: lock && !readOnly, on: connection)
        case .id(let id)?:
            try await store.select(FeedRecord.self, from: table, where: "id = $1", PostgresBindings(id), order: "id", lock: lock && !readOnly, on: connection)
        case nil:
            try await store.select(FeedRecord.self, from: table, order: "slug COLLATE \"C\"", lock: lock && !readOnly, on: connection)
        }
    }

    func feedTallies(feedId: Int64?) async throws -> [Int64: FeedTally] {
        var tallies: [Int64: FeedTally] = [:]
        let counts: PostgresQuery = if let feedId { "SELECT feedId, count(*) FROM countdown WHERE feedId = \(feedId) GROUP BY feedId" }
            else { "SELECT feedId, count(*) FROM countdown GROUP BY feedId" }
        for try await (id, count) in try await connection.query(counts, logger: logger).decode((Int64, Int64).self) {
            tallies[id, default: FeedTally()].countdownCount = Int(count)
        }
        let colors: PostgresQuery = if let feedId { "SELECT feedId, name, color FROM category WHERE feedId = \(feedId) AND color IS NOT NULL" }
            else { "SELECT feedId, name, color FROM category WHERE color IS NOT NULL" }
        for try await (id, name, color) in try await connection.query(colors, logger: logger).decode((Int64, String, String).self) {
            tallies[id, default: FeedTally()].categoryColors[name] = color
        }
        return tallies
    }

    func countdownRows(_ query: CountdownQuery) async throws -> [CountdownRecord] {
        let table = CountdownRecord.table
        switch query {
        case .id(let id, let lock):
            return try await store.select(CountdownRecord.self, from: table, where: "id = $1", PostgresBindings(id), order: "id", lock: lock && !readOnly,
                                          on: connection)
        case .feed(let feedId, let uid):
            var binds = PostgresBindings(feedId)
            if let uid { binds.append(uid) }
            return try await store.select(CountdownRecord.self, from: table, where: uid == nil ? "feedId = $1" : "feedId = $1 AND uid = $2", binds,
                                          order: "startsOn COLLATE \"C\", title COLLATE \"C\", id", on: connection)
        case .batch(let feedId, let after, let limit):
            var binds = PostgresBindings(feedId)
            if let after { binds.append(after) }
            binds.append(Int64(max(0, limit)))
            return try await store.select(CountdownRecord.self, from: table, where: after == nil ? "feedId = $1" : "feedId = $1 AND uid COLLATE \"C\" > $2", binds,
                                          // The limit rides after the order: `select` ends its statement there.
                                          order: "uid COLLATE \"C\" LIMIT $\(after == nil ? 2 : 3)", on: connection)
        case .uids(let feedId, let uids):
            var binds = PostgresBindings(feedId)
            binds.append(uids)
            return try await store.select(CountdownRecord.self, from: table, where: "feedId = $1 AND uid = ANY($2)", binds, order: "uid COLLATE \"C\"", on: connection)
        }
    }

    func sourceRows(feedId: Int64?, lock: Bool) async throws -> [SourceRecord] {
        try await store.select(SourceRecord.self, from: SourceRecord.table, where: feedId == nil ? "TRUE" : "feedId = $1",
                               feedId.map { PostgresBindings($0) } ?? PostgresBindings(), order: "feedId, location COLLATE \"C\"", lock: lock && !readOnly,
                               on: connection)
    }

    func tokenRows(feedId: Int64?) async throws -> [TokenRecord] {
        try await store.select(TokenRecord.self, from: TokenRecord.table, where: feedId == nil ? "TRUE" : "feedId = $1",
                               feedId.map { PostgresBindings($0) } ?? PostgresBindings(), order: "id", on: connection)
    }

    func value(for key: StoreKey) async throws -> PersistedValue? {
        switch key {
        case .setting(let setting):
            return try await connection.query("SELECT value FROM setting WHERE key = \(setting.rawValue)", logger: logger).collect(String.self).first
                .map { PersistedValue(bytes: Data($0.utf8), expiresAt: nil) }
        case .entry(let keyHash):
            for try await (bytes, expiry) in try await connection.query(
                "SELECT value, expiresAt FROM persistEntry WHERE keyHash = \(keyHash)", logger: logger).decode((Data, Date?).self) {
                return PersistedValue(bytes: bytes, expiresAt: expiry)
            }
            return nil
        }
    }

    func image(digest: String) async throws -> ImageRecord? {
        try await store.select(ImageRecord.self, from: ImageRecord.table, where: "sha256 = $1", PostgresBindings(digest), order: "id", on: connection).first
    }

    func davNameRows(feedId: Int64, _ key: DavNameKey) async throws -> [DavNameRecord] {
        var binds = PostgresBindings()
        binds.append(feedId)
        switch key {
        case .name(let name):
            binds.append(name)
            return try await store.select(DavNameRecord.self, from: StoreTable.named("davName"), where: "feedId = $1 AND name = $2", binds,
                                          order: "uid", on: connection)
        case .uids(let uids):
            binds.append(uids)
            return try await store.select(DavNameRecord.self, from: StoreTable.named("davName"), where: "feedId = $1 AND uid = ANY($2)", binds,
                                          order: "uid", on: connection)
        }
    }

    func usage(of owner: StorageOwner) async throws -> StorageUsage {
        let (scope, id): (String, Int64) = switch owner {
        case .space(let id): ("feed.spaceId = $2", id)
        case .person(let id): ("feed.personId = $2 AND feed.spaceId IS NULL", id)
        }
        var binds = PostgresBindings()
        binds.append(StoredImage.scheme)
        binds.append(id)
        for try await (countdowns, bytes, images) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT count(*) + (SELECT count(*) FROM davObject JOIN feed ON feed.id = davObject.feedId WHERE davObject.basis IS NULL AND \(scope)),
                coalesce(sum(octet_length(countdown.content)), 0)::BIGINT
                    + (SELECT coalesce(sum(octet_length(body)), 0) FROM davObject JOIN feed ON feed.id = davObject.feedId WHERE \(scope))::BIGINT,
                count(*) FILTER (WHERE strpos(countdown.content, $1) > 0)
            FROM countdown JOIN feed ON feed.id = countdown.feedId WHERE \(scope)
            """, binds: binds), logger: logger).decode((Int64, Int64, Int64).self) {
            return StorageUsage(countdowns: Int(countdowns), bytes: Int(bytes), images: Int(images))
        }
        return StorageUsage()
    }

    func davObjectRows(_ query: DavObjectQuery) async throws -> [DavObjectRecord] {
        var binds = PostgresBindings()
        binds.append(query.feedId)
        var condition = "feedId = $1"
        if let uids = query.uids {
            binds.append(uids)
            condition += " AND uid = ANY($2)"
        }
        if query.undatedOnly { condition += " AND basis IS NULL" }
        return try await store.select(DavObjectRecord.self, from: query.bodies ? StoreTable.named("davObject") : DavObjectRecord.listed, where: condition, binds,
                                      order: "uid COLLATE \"C\"", on: connection)
    }

    func personalObjectRows(_ query: PersonalObjectQuery) async throws -> [PersonalObjectRecord] {
        var binds = PostgresBindings()
        binds.append(query.personId)
        binds.append(query.feedId)
        binds.append(query.after ?? 0)
        var condition = "personId = $1 AND feedId = $2 AND id > $3"
        if let uids = query.uids {
            binds.append(uids)
            condition += " AND uid = ANY($4)"
        }
        return try await store.select(PersonalObjectRecord.self, from: StoreTable.named("personalObject"), where: condition, binds, order: "id", on: connection)
    }

    func changeRows(_ query: ChangeQuery) async throws -> [ChangeRecord] {
        var binds = PostgresBindings(query.after ?? 0)
        if let feedIds = query.feedIds { binds.append(feedIds) }
        return try await store.select(ChangeRecord.self, from: ChangeRecord.table, where: query.feedIds == nil ? "id > $1" : "id > $1 AND feedId = ANY($2)", binds,
                                      order: query.newestFirst ? "id DESC LIMIT \(max(0, query.limit))" : "id LIMIT \(max(0, query.limit))", on: connection)
    }

    /// None: a stamp row every writer updates would make replicas' writers
    /// take turns; NOTIFY tells them of feeds, and the rest is compared.
    func changeStamp() async throws -> Int64? { nil }

    func personRows(_ key: PersonKey?) async throws -> [PersonRecord] {
        let table = PersonRecord.table
        return switch key {
        case .id(let id)?: try await store.select(PersonRecord.self, from: table, where: "id = $1", PostgresBindings(id), order: "id", on: connection)
        case .login(let login)?:
            try await store.select(PersonRecord.self, from: table, where: "login = $1", PostgresBindings(login), order: "id", on: connection)
        case nil: try await store.select(PersonRecord.self, from: table, order: "login COLLATE \"C\"", on: connection)
        }
    }

    func spaceRows(_ key: SpaceKey?) async throws -> [SpaceRecord] {
        let table = SpaceRecord.table
        return switch key {
        case .id(let id)?: try await store.select(SpaceRecord.self, from: table, where: "id = $1", PostgresBindings(id), order: "id", on: connection)
        case .slug(let slug)?: try await store.select(SpaceRecord.self, from: table, where: "slug = $1", PostgresBindings(slug), order: "id", on: connection)
        case nil: try await store.select(SpaceRecord.self, from: table, order: "slug COLLATE \"C\"", on: connection)
        }
    }

    func memberRows(spaceId: Int64?, personId: Int64?) async throws -> [MemberRecord] {
        var binds = PostgresBindings()
        var conditions: [String] = []
        if let spaceId { binds.append(spaceId); conditions.append("spaceId = $\(conditions.count + 1)") }
        if let personId { binds.append(personId); conditions.append("personId = $\(conditions.count + 1)") }
        return try await store.select(MemberRecord.self, from: StoreTable.named("member"),
                                      where: conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND "), binds, order: "spaceId, personId",
                                      on: connection)
    }

    func personTokenRows(_ key: PersonTokenKey) async throws -> [PersonTokenRecord] {
        let table = PersonTokenRecord.table
        return switch key {
        case .hash(let hash):
            try await store.select(PersonTokenRecord.self, from: table, where: "tokenHash = $1", PostgresBindings(hash), order: "id", on: connection)
        case .person(let id):
            try await store.select(PersonTokenRecord.self, from: table, where: "personId = $1", PostgresBindings(id), order: "id", on: connection)
        }
    }

    // MARK: writes

    func save<Row: TableRow>(_ row: Row) async throws -> Row {
        let saved = try await store.saved(row, in: Row.table, keeping: Row.writtenOnce, on: connection)
        if let feed = saved as? FeedRecord { try await store.notify(connection, slug: feed.slug, revision: feed.revision, owner: StorageOwner(feed)) }
        return saved
    }

    /// A feed deleted is told to the replicas as one revision past its last.
    func delete<Row: TableRow>(_ type: Row.Type, ids: [Int64]) async throws {
        guard type == FeedRecord.self else {
            try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(Row.table.name) WHERE id = ANY($1)", binds: PostgresBindings(ids)), logger: logger)
            return
        }
        for try await (slug, revision) in try await connection.query("DELETE FROM feed WHERE id = ANY(\(ids)) RETURNING slug, revision", logger: logger)
            .decode((String, Int64).self) {
            try await store.notify(connection, slug: slug, revision: revision + 1, owner: nil)
        }
    }

    func saveCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        for row in rows {
            ids.append(try await store.save(row, in: CountdownRecord.table, keeping: CountdownRecord.writtenOnce, on: connection))
        }
        return ids
    }

    func saveCategories(feedId: Int64, colors: [String: String], links: [CategoryLinks], replacing: Bool) async throws {
        for (name, color) in colors.sorted(by: { $0.key < $1.key }) {
            try await connection.query("""
                INSERT INTO category (feedId, name, color) VALUES (\(feedId), \(name), \(color))
                ON CONFLICT (feedId, name) DO UPDATE SET color = excluded.color
                """, logger: logger)
        }
        for link in links {
            if replacing { try await connection.query("DELETE FROM countdownCategory WHERE countdownId = \(link.countdownId)", logger: logger) }
            for name in Set(link.names).sorted() {
                try await connection.query("""
                    WITH found AS (
                        INSERT INTO category (feedId, name) VALUES (\(feedId), \(name))
                        ON CONFLICT (feedId, name) DO UPDATE SET name = excluded.name RETURNING id
                    )
                    INSERT INTO countdownCategory (countdownId, categoryId) SELECT \(link.countdownId), id FROM found ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
        }
    }

    func setValue(_ value: PersistedValue?, for key: StoreKey) async throws {
        switch (key, value) {
        case (.setting(let setting), let value?):
            try await connection.query("""
                INSERT INTO setting (key, value) VALUES (\(setting.rawValue), \(String(decoding: value.bytes, as: UTF8.self)))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, logger: logger)
        case (.setting(let setting), nil):
            try await connection.query("DELETE FROM setting WHERE key = \(setting.rawValue)", logger: logger)
        case (.entry(let keyHash), let value?):
            try await connection.query("""
                INSERT INTO persistEntry (keyHash, value, expiresAt) VALUES (\(keyHash), \(value.bytes), \(value.expiresAt))
                ON CONFLICT (keyHash) DO UPDATE SET value = excluded.value, expiresAt = excluded.expiresAt
                """, logger: logger)
        case (.entry(let keyHash), nil):
            try await connection.query("DELETE FROM persistEntry WHERE keyHash = \(keyHash)", logger: logger)
        }
    }

    func relabelHistory(actor: String, as label: String) async throws {
        // The login alone, or followed by " via " and an app's label (what a calendar app changed).
        for (table, column) in [("countdown", "createdBy"), ("countdown", "changedBy"), ("countdownChange", "actor")] {
            var binds = PostgresBindings()
            binds.append(label)
            binds.append(actor)
            try await connection.query(PostgresQuery(unsafeSQL: """
                UPDATE \(table) SET \(column) = $1 || substr(\(column), length($2) + 1)
                WHERE \(column) = $2 OR substr(\(column), 1, length($2) + 5) = $2 || ' via '
                """, binds: binds), logger: logger)
        }
    }

    func saveDavName(_ row: DavNameRecord) async throws {
        try await connection.query("DELETE FROM davName WHERE feedId = \(row.feedId) AND name = \(row.name) AND uid <> \(row.uid)", logger: logger)
        try await connection.query("""
            INSERT INTO davName (feedId, uid, name) VALUES (\(row.feedId), \(row.uid), \(row.name))
            ON CONFLICT (feedId, uid) DO UPDATE SET name = excluded.name
            """, logger: logger)
    }

    func saveDavObject(_ row: DavObjectRecord) async throws {
        try await connection.query("""
            INSERT INTO davObject (feedId, uid, basis, etag, title, savedAt, body)
            VALUES (\(row.feedId), \(row.uid), \(row.basis), \(row.etag), \(row.title), \(row.savedAt), \(row.body ?? ""))
            ON CONFLICT (feedId, uid) DO UPDATE SET basis = excluded.basis, etag = excluded.etag, title = excluded.title, savedAt = excluded.savedAt,
                body = excluded.body
            """, logger: logger)
    }

    func deleteDavObjects(feedId: Int64, uids: [String]) async throws {
        guard !uids.isEmpty else { return }
        try await connection.query("DELETE FROM davObject WHERE feedId = \(feedId) AND uid = ANY(\(uids))", logger: logger)
    }

    func savePersonalObject(_ row: PersonalObjectRecord) async throws -> PersonalObjectRecord {
        try await deletePersonalObjects(feedId: row.feedId, uids: [row.uid], personId: row.personId)
        let rows = try await connection.query("""
            INSERT INTO personalObject (personId, feedId, uid, body, savedAt) VALUES (\(row.personId), \(row.feedId), \(row.uid), \(row.body), \(row.savedAt))
            RETURNING id
            """, logger: logger)
        var saved = row
        for try await id in rows.decode(Int64.self) { saved.id = id }
        return saved
    }

    func deletePersonalObjects(feedId: Int64, uids: [String], personId: Int64?) async throws {
        guard !uids.isEmpty else { return }
        if let personId {
            try await connection.query("DELETE FROM personalObject WHERE feedId = \(feedId) AND uid = ANY(\(uids)) AND personId = \(personId)", logger: logger)
        } else {
            try await connection.query("DELETE FROM personalObject WHERE feedId = \(feedId) AND uid = ANY(\(uids))", logger: logger)
        }
    }

    func setMember(spaceId: Int64, personId: Int64, to row: MemberRecord?) async throws {
        if let row {
            try await connection.query("""
                INSERT INTO member (spaceId, personId, role, joinedAt, hiddenFromBoard)
                VALUES (\(spaceId), \(personId), \(row.role.rawValue), \(row.joinedAt), \(row.hiddenFromBoard))
                ON CONFLICT (spaceId, personId) DO UPDATE SET role = excluded.role, hiddenFromBoard = excluded.hiddenFromBoard
                """, logger: logger)
        } else {
            try await connection.query("DELETE FROM member WHERE spaceId = \(spaceId) AND personId = \(personId)", logger: logger)
        }
    }

    func deleteExpiredEntries() async throws -> Int {
        try await connection.query("DELETE FROM persistEntry WHERE expiresAt <= \(now) RETURNING keyHash", logger: logger).collect(String.self).count
    }
}

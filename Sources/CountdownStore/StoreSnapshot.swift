import Foundation

/// Every row of every table, column by column: what `tminus copy` carries from
/// one store to another (SQLite to PostgreSQL, or back). Ids are kept, so that
/// everything derived from them (card links, ETags of the JSON) stays the same,
/// and so are stamps and revisions: both stores then serve the same bytes.
public struct StoreSnapshot: Sendable {
    public var tables: [String: [[StoreValue]]] = [:]

    public init() {}

    /// Rows per table, for progress and reports.
    public var counts: [(table: String, rows: Int)] { StoreTable.all.map { ($0.name, tables[$0.name]?.count ?? 0) } }
}

/// One cell.
extension StoreSnapshot {
    /// Sets a column of every row of a table to NULL (`tminus copy` without
    /// `--with-logins`); returns how many rows had a value there.
    public mutating func blank(_ column: String, in table: String) -> Int {
        guard let index = StoreTable.all.first(where: { $0.name == table })?.columns.firstIndex(where: { $0.name == column }),
              var rows = tables[table] else { return 0 }
        var blanked = 0
        for row in rows.indices where rows[row][index] != .null {
            rows[row][index] = .null
            blanked += 1
        }
        tables[table] = rows
        return blanked
    }
}

public enum StoreValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case boolean(Bool)
    case date(Date)
    case blob(Data)
}

/// A table as both stores define it (the same schema versions), in an order in
/// which foreign keys are satisfied when rows are inserted.
public struct StoreTable: Sendable {
    public enum Kind: Sendable { case integer, text, boolean, date, blob }

    public let name: String
    public let columns: [(name: String, kind: Kind)]
    /// The column rows are ordered by (and an identity to reset after a copy, when it is `id`).
    public let key: String

    public var columnList: String { columns.map(\.name).joined(separator: ", ") }

    /// The table of `all` with this name (a coding error, trapped at startup, when there is none).
    public static func named(_ name: String) -> StoreTable {
        guard let table = all.first(where: { $0.name == name }) else { preconditionFailure("no table \(name) in StoreTable.all") }
        return table
    }

    public static let all: [StoreTable] = [
        StoreTable(name: "person", columns: [
            ("id", .integer), ("login", .text), ("displayName", .text), ("passwordHash", .text), ("language", .text), ("isAdmin", .boolean),
            ("disabledAt", .date), ("createdAt", .date), ("sessionEpoch", .text), ("totpSecret", .text),
            ("totpLastStep", .integer), ("recoveryCodes", .text),
        ], key: "id"),
        StoreTable(name: "space", columns: [("id", .integer), ("slug", .text), ("name", .text), ("createdAt", .date)], key: "id"),
        StoreTable(name: "feed", columns: [
            ("id", .integer), ("slug", .text), ("createdAt", .date), ("updatedAt", .date), ("revision", .integer), ("settings", .text),
            ("personId", .integer), ("spaceId", .integer),
        ], key: "id"),
        StoreTable(name: "source", columns: [
            ("id", .integer), ("feedId", .integer), ("location", .text), ("etag", .text), ("lastModifiedHeader", .text),
            ("lastFetchedAt", .date), ("lastSuccessAt", .date), ("lastError", .text), ("subscribed", .boolean), ("leaseUntil", .date),
            ("login", .text), ("rules", .text), ("importedWith", .text),
        ], key: "id"),
        StoreTable(name: "countdown", columns: [
            ("id", .integer), ("feedId", .integer), ("sourceId", .integer), ("uid", .text), ("title", .text), ("kind", .text),
            ("status", .text), ("startsOn", .text), ("sequence", .integer), ("createdAt", .date), ("lastModified", .date), ("content", .text),
            ("createdBy", .text), ("changedBy", .text), ("placeRank", .integer), ("placeFrom", .integer), ("placeCheckAt", .integer),
            ("changedByPerson", .integer),
        ], key: "id"),
        StoreTable(name: "countdownChange", columns: [
            ("id", .integer), ("feedId", .integer), ("countdownId", .integer), ("uid", .text), ("kind", .text), ("title", .text),
            ("actor", .text), ("at", .date), ("actorPerson", .integer),
        ], key: "id"),
        StoreTable(name: "category", columns: [("id", .integer), ("feedId", .integer), ("name", .text), ("color", .text)], key: "id"),
        StoreTable(name: "countdownCategory", columns: [("countdownId", .integer), ("categoryId", .integer)], key: "countdownId"),
        StoreTable(name: "image", columns: [("id", .integer), ("sha256", .text), ("mimeType", .text), ("bytes", .blob), ("createdAt", .date)],
                   key: "id"),
        StoreTable(name: "feedToken", columns: [
            ("id", .integer), ("feedId", .integer), ("label", .text), ("tokenHash", .text), ("createdAt", .date), ("lastUsedAt", .date),
            ("revokedAt", .date), ("visibility", .text),
        ], key: "id"),
        StoreTable(name: "member", columns: [("spaceId", .integer), ("personId", .integer), ("role", .text), ("joinedAt", .date),
                                             ("hiddenFromBoard", .boolean)], key: "spaceId, personId"),
        StoreTable(name: "personToken", columns: [
            ("id", .integer), ("personId", .integer), ("label", .text), ("tokenHash", .text), ("readOnly", .boolean), ("createdAt", .date),
            ("expiresAt", .date), ("lastUsedAt", .date), ("revokedAt", .date), ("purpose", .text),
        ], key: "id"),
        StoreTable(name: "davName", columns: [("feedId", .integer), ("uid", .text), ("name", .text)], key: "feedId, uid"),
        StoreTable(name: "davObject", columns: [("feedId", .integer), ("uid", .text), ("basis", .text), ("etag", .text), ("title", .text), ("savedAt", .date),
                                                     ("body", .text)],
                   key: "feedId, uid"),
        StoreTable(name: "personalObject", columns: [("id", .integer), ("personId", .integer), ("feedId", .integer), ("uid", .text), ("body", .text),
                                                     ("savedAt", .date)], key: "id"),
        StoreTable(name: "setting", columns: [("key", .text), ("value", .text)], key: "key"),
        StoreTable(name: "persistEntry", columns: [("keyHash", .text), ("value", .blob), ("expiresAt", .date)], key: "keyHash"),
    ]
}

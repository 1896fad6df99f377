import Foundation
import GRDB

/// A `category` row: a tag within one feed, with an optional colour.
struct CategoryRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "category"
    var id: Int64?
    var feedId: Int64
    var name: String
    var color: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Links a countdown to exactly these category names, creating categories as needed.
    static func link(_ db: Database, countdownId: Int64, feedId: Int64, names: [String]) throws {
        try db.execute(sql: "DELETE FROM countdownCategory WHERE countdownId = ?", arguments: [countdownId])
        for name in Set(names) {
            try db.execute(sql: "INSERT OR IGNORE INTO category (feedId, name) VALUES (?, ?)", arguments: [feedId, name])
            try db.execute(sql: """
                INSERT OR IGNORE INTO countdownCategory (countdownId, categoryId)
                SELECT ?, id FROM category WHERE feedId = ? AND name = ?
                """, arguments: [countdownId, feedId, name])
        }
    }

    static func colors(_ db: Database, feedId: Int64) throws -> [String: String] {
        var colors: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, color FROM category WHERE feedId = ? AND color IS NOT NULL", arguments: [feedId]) {
            colors[row["name"]] = row["color"]
        }
        return colors
    }
}

import CountdownStore
import Foundation
import GRDB

/// The `category` rows (a tag within one feed, with an optional colour) and
/// the links of countdowns to them, written in SQL: nothing reads a category
/// as a record (a feed's colours come with its tally).
package enum CategoryRows {
    /// Links many countdowns of one feed within one transaction. Each category
    /// is looked up or created once, and every statement is prepared once: an
    /// import links every countdown it writes, and compiling the statements anew
    /// each time cost more than running them.
    package struct Linker {
        package let feedId: Int64
        private var ids: [String: Int64] = [:]

        package init(feedId: Int64) { self.feedId = feedId }

        /// `replacing` first removes the countdown's old links (not needed for a new row).
        package mutating func link(_ db: Database, countdownId: Int64, names: [String], replacing: Bool) throws {
            if replacing {
                try db.cachedStatement(sql: "DELETE FROM countdownCategory WHERE countdownId = ?").execute(arguments: [countdownId])
            }
            for name in Set(names) {
                let categoryId = try ids[name] ?? id(of: name, db)
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO countdownCategory (countdownId, categoryId) VALUES (?, ?)")
                    .execute(arguments: [countdownId, categoryId])
            }
        }

        private mutating func id(of name: String, _ db: Database) throws -> Int64 {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO category (feedId, name) VALUES (?, ?)").execute(arguments: [feedId, name])
            let statement = try db.cachedStatement(sql: "SELECT id FROM category WHERE feedId = ? AND name = ?")
            guard let id = try Int64.fetchOne(statement, arguments: [feedId, name]) else {
                throw StoreError.invalid("category '\(name)' could not be created")
            }
            ids[name] = id
            return id
        }
    }

    /// Sets colours, creating the categories, and leaves the other categories as they are.
    package static func saveColors(_ db: Database, feedId: Int64, colors: [String: String]) throws {
        for (name, color) in colors {
            try db.execute(sql: """
                INSERT INTO category (feedId, name, color) VALUES (?, ?, ?)
                ON CONFLICT(feedId, name) DO UPDATE SET color = excluded.color
                """, arguments: [feedId, name, color])
        }
    }
}

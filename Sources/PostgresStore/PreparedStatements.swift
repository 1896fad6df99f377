import Countdowns
import Foundation
import PostgresNIO

/// The statements every replica runs on every change it hears of, prepared once
/// per connection (PostgresNIO prepares them on first use and reuses them):
/// the feeds' revisions, the live tokens, and the stamps a recompile compares.
enum PreparedStatements {
    struct FeedVersions: PostgresPreparedStatement {
        static let sql = "SELECT slug, revision FROM feed ORDER BY slug COLLATE \"C\""
        typealias Row = (String, Int64)

        func makeBindings() -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    struct ActiveTokens: PostgresPreparedStatement {
        static let sql = """
            SELECT feedToken.id, feedToken.tokenHash, feed.slug, feedToken.visibility FROM feedToken
            JOIN feed ON feed.id = feedToken.feedId WHERE revokedAt IS NULL ORDER BY feedToken.id
            """
        typealias Row = (Int64, String, String, Visibility)

        func makeBindings() -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A feed's countdowns in serving order, without their content.
    struct CountdownStamps: PostgresPreparedStatement {
        static let sql = """
            SELECT countdown.id, countdown.sequence, countdown.createdAt, countdown.lastModified, source.location
            FROM countdown LEFT JOIN source ON source.id = countdown.sourceId
            WHERE countdown.feedId = $1 ORDER BY countdown.startsOn COLLATE "C", countdown.title COLLATE "C", countdown.id
            """
        typealias Row = (Int64, Int, Date, Date, String?)
        static let bindingDataTypes: [PostgresDataType] = [.int8]

        var feedId: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(feedId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}

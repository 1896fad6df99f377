import Countdowns
import Foundation

/// Every row of an in-memory store, as plain values: copying it is how a
/// transaction gets its working state, and keeping the copy is its commit.
package struct InMemoryTables: Sendable {
    package struct Category: Sendable {
        package var id: Int64
        package var feedId: Int64
        package var name: String
        package var color: String?
    }

    package var feeds: [Int64: FeedRecord] = [:] { didSet { changeStamp += 1 } }
    package var countdowns: [Int64: CountdownRecord] = [:]
    package var categories: [Int64: Category] = [:]
    /// countdown id → category ids.
    package var links: [Int64: Set<Int64>] = [:]
    package var sources: [Int64: SourceRecord] = [:]
    package var tokens: [Int64: TokenRecord] = [:]
    /// By SHA-256.
    package var images: [String: ImageRecord] = [:]
    package var values: [StoreKey: PersistedValue] = [:]
    package var people: [Int64: PersonRecord] = [:] { didSet { changeStamp += 1 } }
    package var spaces: [Int64: SpaceRecord] = [:] { didSet { changeStamp += 1 } }
    /// By space id, then person id.
    package var members: [Int64: [Int64: MemberRecord]] = [:] { didSet { changeStamp += 1 } }
    package var personTokens: [Int64: PersonTokenRecord] = [:]
    package var changes: [Int64: ChangeRecord] = [:]
    /// By feed id, then UID.
    package var davNames: [Int64: [String: String]] = [:]
    /// By feed id, then UID.
    package var davObjects: [Int64: [String: DavObjectRecord]] = [:]
    /// By id.
    package var personalObjects: [Int64: PersonalObjectRecord] = [:]
    /// Moves with every write of the tables `StoreReader.changeStamp` names
    /// (the tokens' by `saveToken` and `savePersonToken`, unless only their last use changed).
    package var changeStamp: Int64 = 0
    /// The tables whose rows get ids.
    package enum Table: Hashable, Sendable { case feed, countdown, category, source, token, person, space, personToken, change, image, personalObject }
    private var lastIds: [Table: Int64] = [:]

    /// Each table counts its own ids from 1, as SQLite's and PostgreSQL's do.
    package mutating func nextId(_ table: Table) -> Int64 {
        let id = (lastIds[table] ?? 0) + 1
        lastIds[table] = id
        return id
    }

    /// Deletes a feed and what hangs on it, as the databases' cascades do.
    package mutating func deleteFeed(id: Int64) {
        feeds[id] = nil
        for (countdownId, row) in countdowns where row.feedId == id { deleteCountdown(id: countdownId) }
        categories = categories.filter { $0.value.feedId != id }
        sources = sources.filter { $0.value.feedId != id }
        tokens = tokens.filter { $0.value.feedId != id }
        changes = changes.filter { $0.value.feedId != id }
        davNames[id] = nil
        davObjects[id] = nil
        personalObjects = personalObjects.filter { $0.value.feedId != id }
    }

    /// Deletes a person with their memberships and tokens; their feeds lose their owner.
    package mutating func deletePerson(id: Int64) {
        people[id] = nil
        for space in members.keys { members[space]?[id] = nil }
        personTokens = personTokens.filter { $0.value.personId != id }
        personalObjects = personalObjects.filter { $0.value.personId != id }
        for (feedId, feed) in feeds where feed.personId == id { feeds[feedId]?.personId = nil }
    }

    package mutating func deleteCountdown(id: Int64) {
        countdowns[id] = nil
        links[id] = nil
    }

    package mutating func categoryId(feedId: Int64, name: String) -> Int64 {
        if let found = categories.values.first(where: { $0.feedId == feedId && $0.name == name }) { return found.id }
        let id = nextId(.category)
        categories[id] = Category(id: id, feedId: feedId, name: name)
        return id
    }

    /// Inserts a row without an id (giving it the next one) or replaces the row with its id.
    package mutating func save<Row: SavedRow>(_ row: Row, in table: WritableKeyPath<InMemoryTables, [Int64: Row]>, kind: Table,
                                             id assign: (inout Row, Int64) -> Void) -> Row {
        var row = row
        let id = row.id ?? nextId(kind)
        assign(&row, id)
        self[keyPath: table][id] = row
        return row
    }
}

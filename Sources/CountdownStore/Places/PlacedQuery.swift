import Countdowns
import Foundation

/// What the first page of a feed's soonest-first list reads from a store
/// (`StoreReader.placedRows`): its first rows by their place bounds, and what
/// the counts beside the page need, without reading the other rows (issue #41).
public struct PlacedQuery: Sendable, Hashable {
    public var feedId: Int64
    /// Only countdowns with a category of this name, compared lower-cased
    /// (`?category=`, as a compiled feed filters); nil: every countdown.
    public var category: String?
    /// How many rows to read first, in place order: rank, then from (a row
    /// not placed yet before any other of its rank), then id.
    public var limit: Int
    /// Open tasks placed before this instant (seconds since 1970), or not
    /// placed, come with their rows: they may be overdue, due today or this
    /// week. The other open tasks are only counted.
    public var tasksBefore: Int64
    /// When given, only the rows placed at or before it (rank, then from;
    /// unplaced ones too), still at most `limit`: the read that settles a
    /// first page whose first read did not (`FirstPage.Outcome.readThrough`).
    public var through: PlaceBound?

    public init(feedId: Int64, category: String?, limit: Int, tasksBefore: Int64, through: PlaceBound? = nil) {
        self.feedId = feedId
        self.category = category
        self.limit = limit
        self.tasksBefore = tasksBefore
        self.through = through
    }

    /// Whether a row placed at `rank`, `from` is within `through` (a row not placed is).
    public func reaches(rank: Int?, from: Int64?) -> Bool {
        guard let through, let rank, let from else { return true }
        return rank < through.rank || (rank == through.rank && from <= through.from)
    }

    /// Whether a category called `name` is the one asked for (every store compares so).
    public func matches(category name: String) -> Bool { category.map { name.lowercased() == $0 } ?? true }
}

/// What `StoreReader.placedRows` answers.
public struct PlacedRows: Sendable {
    /// The first `limit` rows in place order.
    public var rows: [CountdownRecord]
    /// Every countdown of the feed (of the category).
    public var total: Int
    /// Every open task (active) of the feed (of the category).
    public var openTasks: Int
    /// The open tasks placed before `tasksBefore`, or not placed, in id order.
    public var nearTasks: [CountdownRecord]

    public init(rows: [CountdownRecord], total: Int, openTasks: Int, nearTasks: [CountdownRecord]) {
        self.rows = rows
        self.total = total
        self.openTasks = openTasks
        self.nearTasks = nearTasks
    }
}

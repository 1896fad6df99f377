/// Which countdown rows `StoreReader.countdownRows` reads: always one feed's,
/// or one row, by an index every store has.
public enum CountdownQuery: Sendable, Hashable {
    /// The row with this id; `lock` holds it until the transaction ends
    /// where the store needs that (PostgreSQL's `FOR UPDATE`).
    case id(Int64, lock: Bool)
    /// A feed's rows, soonest first (`startsOn`, title, id); only the one
    /// with `uid` when given.
    case feed(Int64, uid: String?)
    /// At most `limit` of a feed's rows in UID order (bytes), those after
    /// `after` when given: a large feed's export written a batch at a time,
    /// in the order the calendar holds them, never all rows at once.
    case batch(feedId: Int64, after: String?, limit: Int)
    /// The rows of these UIDs of a feed, in UID order (bytes): a calendar app's
    /// multiget of 100 reads 100 rows by the (feedId, uid) index, not the feed's 10,000.
    case uids(feedId: Int64, [String])
}

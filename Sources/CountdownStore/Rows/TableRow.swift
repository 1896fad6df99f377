import Countdowns

/// A row that `StoreTransaction.save` writes whole and `delete` removes by
/// id: it lives in one table (`StoreTable`, its columns in order, which
/// `RowCoding` maps the row to), and the store gives it its id on insert.
///
/// Why one generic primitive and not one per table: each `saveFeed`,
/// `saveSource`, `savePerson`… was the same insert-or-update in every store,
/// written six times over three stores; a store now writes it once from the
/// table's column list.
public protocol TableRow: SavedRow, Codable, Equatable, Sendable {
    /// The table the row lives in.
    static var table: StoreTable { get }
    /// Columns written on insert and never again (who made a countdown, and when).
    static var writtenOnce: Set<String> { get }
    var id: Int64? { get set }
}

extension TableRow {
    public static var writtenOnce: Set<String> { [] }
}

extension FeedRecord: TableRow { public static let table = StoreTable.named("feed") }
extension SourceRecord: TableRow { public static let table = StoreTable.named("source") }
extension TokenRecord: TableRow { public static let table = StoreTable.named("feedToken") }
extension PersonRecord: TableRow { public static let table = StoreTable.named("person") }
extension SpaceRecord: TableRow { public static let table = StoreTable.named("space") }
extension PersonTokenRecord: TableRow { public static let table = StoreTable.named("personToken") }
extension CountdownRecord: TableRow {
    public static let table = StoreTable.named("countdown")
    public static var writtenOnce: Set<String> { ["createdAt", "createdBy"] }
}

import Countdowns

/// A row, or a countdown, that the store assigns its id on insert: before
/// that it has none, and every one read back has one. Code that needs the id
/// asks through `savedID()`, which throws on a row without one (a damaged
/// database) instead of trapping the server on it.
public protocol SavedRow {
    var id: Int64? { get }
}

extension SavedRow {
    /// The id the store gave this row.
    public func savedID() throws(StoreError) -> Int64 {
        guard let id else { throw StoreError.unsaved(String(describing: Self.self)) }
        return id
    }
}

extension FeedRecord: SavedRow {}
extension CountdownRecord: SavedRow {}
extension SourceRecord: SavedRow {}
extension Countdown: SavedRow {}
extension TokenRecord: SavedRow {}
extension PersonRecord: SavedRow {}
extension SpaceRecord: SavedRow {}
extension PersonTokenRecord: SavedRow {}
extension ChangeRecord: TableRow { public static let table = StoreTable.named("countdownChange") }

import Countdowns
import CountdownStore
import GRDB

/// The enums rows hold are stored as their raw text, checked on the way in
/// (a token's visibility also by the column's CHECK, v7). PostgreSQL's twins
/// are `PostgresTextValue`.
extension Visibility: DatabaseValueConvertible {}
extension Countdown.Kind: DatabaseValueConvertible {}
extension CountdownStatus: DatabaseValueConvertible {}
extension Feed.CountdownMode: DatabaseValueConvertible {}
extension FeedSnapshot.Sort: DatabaseValueConvertible {}
extension Redaction: DatabaseValueConvertible {}

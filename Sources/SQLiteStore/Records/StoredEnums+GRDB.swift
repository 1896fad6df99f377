import Countdowns
import CountdownStore
import GRDB

/// The enums rows hold are stored as their raw text, checked on the way in
/// (a token's visibility also by the column's CHECK, v7). PostgreSQL's twins
/// are `PostgresTextValue`.
extension Visibility: DatabaseValueConvertible {}
extension Countdown.Kind: DatabaseValueConvertible {}
extension CountdownStatus: DatabaseValueConvertible {}
extension Redaction: DatabaseValueConvertible {}

/// A feed's settings document, stored as its text (not as GRDB's JSON of a
/// Codable value, which would wrap the text in quotes).
extension FeedSettingsColumn: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> FeedSettingsColumn? {
        String.fromDatabaseValue(value).map(FeedSettingsColumn.init(rawValue:))
    }
}

/// Recovery codes' hashes, stored as their text.
extension RecoveryCodeHashes: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> RecoveryCodeHashes? {
        String.fromDatabaseValue(value).map(RecoveryCodeHashes.init(rawValue:))
    }
}

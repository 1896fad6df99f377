import Countdowns
import Foundation

/// What says whether a countdown parsed earlier is still its row: the same
/// sequence, stamps and source. A catalog that compiles a feed again reuses
/// the countdowns whose stamp matches, and parses only the others.
public struct RowStamp: Sendable {
    public var id: Int64
    public var sequence: Int
    public var created: Date
    public var lastModified: Date
    public var source: String?

    public init(id: Int64, sequence: Int, created: Date, lastModified: Date, source: String?) {
        self.id = id
        self.sequence = sequence
        self.created = created
        self.lastModified = lastModified
        self.source = source
    }

    public func matches(_ countdown: Countdown) -> Bool {
        countdown.sequence == sequence && countdown.created == created && countdown.lastModified == lastModified && countdown.source == source
    }
}

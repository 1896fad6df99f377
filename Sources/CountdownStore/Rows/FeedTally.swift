import Foundation

/// What a feed's other rows add to it as callers see it (`StoredFeed`): how
/// many countdowns it has and the colours set on its categories. Read for
/// every feed at once when every feed is read (a server's start: two
/// statements, not two per feed), for one feed when one is.
public struct FeedTally: Sendable, Equatable {
    public var countdownCount = 0
    public var categoryColors: [String: String] = [:]

    public init(countdownCount: Int = 0, categoryColors: [String: String] = [:]) {
        self.countdownCount = countdownCount
        self.categoryColors = categoryColors
    }
}

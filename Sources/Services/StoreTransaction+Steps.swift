import Countdowns
import CountdownStore
import Foundation

/// Steps several use cases share, built from primitives.
extension StoreTransaction {
    /// The feed row, or `feedNotFound`.
    func requireFeed(_ slug: String, lock: Bool = false) async throws -> FeedRecord {
        guard let feed = try await feedRow(slug: slug, lock: lock) else { throw StoreError.feedNotFound(slug) }
        return feed
    }

    /// The countdown row, or `countdownNotFound`.
    func requireCountdown(_ id: Int64, lock: Bool = false) async throws -> CountdownRecord {
        guard let row = try await countdownRow(id: id, lock: lock) else { throw StoreError.countdownNotFound(id) }
        return row
    }

    /// A countdown row as a countdown, with the location of its source.
    func countdown(_ row: CountdownRecord) async throws -> Countdown {
        try row.countdown(source: try await row.sourceId.asyncMap { try await sourceLocation(id: $0) } ?? nil)
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

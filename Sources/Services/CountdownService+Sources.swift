import CountdownStore
import Foundation

extension CountdownService {
    /// Records a fetch of a feed's source: validators on success (200 or 304),
    /// the error otherwise; ends the caller's lease. The source row is made
    /// when new, so a source that never worked shows its error from the first try.
    public func recordFetch(feed slug: String, location: String, etag: String?, lastModified: String?, error: String?) async throws {
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let id = try await tx.sourceId(feedId: feed.id!, location: location)
            try await tx.recordFetch(sourceId: id, etag: etag, lastModified: lastModified, error: error)
        }
    }

    /// Takes the right to fetch a URL source for `duration`, unless another
    /// process (a replica) holds it: true when the caller may fetch now, so
    /// that replicas never fetch one source at once. `recordFetch` gives it back.
    public func leaseRefresh(feed slug: String, location: String, for duration: TimeInterval) async throws -> Bool {
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let id = try await tx.sourceId(feedId: feed.id!, location: location)
            return try await tx.leaseSource(id: id, until: tx.now.addingTimeInterval(duration))
        }
    }

    /// Stops fetching `location`; what it brought stays until removed by hand.
    public func unsubscribe(feed slug: String, location: String) async throws {
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            if let id = try await tx.existingSourceId(feedId: feed.id!, location: location) { try await tx.setSubscribed(sourceId: id, false, login: nil) }
        }
    }

    /// Imports a calendar fetched from `location`, and keeps fetching it in the
    /// background (the web app's "keep it up to date"), in one transaction:
    /// a refused import subscribes nothing. `login` is the source's login,
    /// already sealed by the caller (the service never sees it in the clear).
    public func importAndSubscribe(_ data: [UInt8], intoFeed slug: String, options: ImportOptions, location: String,
                                   login: String? = nil) async throws -> ImportReport {
        let batch = try await read(data, intoFeed: slug, options: options)
        return try await transaction { tx in
            let report = try await apply(batch, intoFeed: slug, options: options, progress: nil, tx)
            let feed = try await tx.requireFeed(slug)
            try await tx.setSubscribed(sourceId: try await tx.sourceId(feedId: feed.id!, location: location), true, login: login)
            return report
        }
    }
}

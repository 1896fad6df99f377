import CountdownStore
import Foundation

extension CountdownService {
    /// Records a fetch of a feed's source: validators on success (200 or 304),
    /// the error otherwise; ends the caller's lease. The source row is made
    /// when new, so a source that never worked shows its error from the first try.
    /// `importedWith`: after an import, a digest of the rules it went through.
    public func recordFetch(feed slug: String, location: String, etag: String?, lastModified: String?, error: String?,
                            importedWith: String? = nil) async throws {
        try authorize(.editFeed(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let id = try await tx.sourceId(feedId: try feed.savedID(), location: location)
            try await tx.recordFetch(sourceId: id, etag: etag, lastModified: lastModified, error: error, importedWith: importedWith)
        }
    }

    /// Takes the right to fetch a URL source for `duration`, unless another
    /// process (a replica) holds it: true when the caller may fetch now, so
    /// that replicas never fetch one source at once. `recordFetch` gives it back.
    public func leaseRefresh(feed slug: String, location: String, for duration: TimeInterval) async throws -> Bool {
        try authorize(.editFeed(slug))
        return try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let id = try await tx.sourceId(feedId: try feed.savedID(), location: location)
            return try await tx.leaseSource(id: id, until: tx.now.addingTimeInterval(duration))
        }
    }

    /// Stops fetching `location`; what it brought stays until removed by hand.
    public func unsubscribe(feed slug: String, location: String) async throws {
        try authorize(.editFeed(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            if let id = try await tx.existingSourceId(feedId: try feed.savedID(), location: location) {
                _ = try await tx.setSourceRules(sourceId: id, rules: nil)
                try await tx.setSubscribed(sourceId: id, false, login: nil)
            }
        }
        await events.published(.subscriptionsChanged(feed: slug))
    }

    /// Sets the rules of a source the feed keeps fetching (nil: none), already
    /// checked by the caller; false when the feed has no such subscription.
    /// The source's validators go with the old rules: its next fetch is a full one.
    public func setSubscriptionRules(feed slug: String, location: String, rules: String?) async throws -> Bool {
        try authorize(.editFeed(slug))
        let saved = try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            guard let id = try await tx.existingSourceId(feedId: try feed.savedID(), location: location) else { return false }
            return try await tx.setSourceRules(sourceId: id, rules: rules)
        }
        if saved { await events.published(.rulesChanged(feed: slug, location: location)) }
        return saved
    }

    /// Replaces the sealed logins of subscriptions, in one transaction: all of
    /// them or none (the server re-seals logins of an older format at start).
    /// A subscription stopped meanwhile is left as it is.
    public func replaceSealedLogins(_ logins: [SourceSubscription]) async throws {
        try authorize(.administer)
        try await transaction { tx in
            for login in logins {
                guard let feed = try await tx.feedRow(slug: login.feed, lock: true), let feedId = feed.id,
                      let id = try await tx.existingSourceId(feedId: feedId, location: login.location) else { continue }
                try await tx.setSubscribed(sourceId: id, true, login: login.login)
            }
        }
    }

    /// Imports a calendar fetched from `location`, and keeps fetching it in the
    /// background (the web app's "keep it up to date"), in one transaction:
    /// a refused import subscribes nothing. `login` is the source's login,
    /// already sealed by the caller (the service never sees it in the clear);
    /// `rules`, when given, the source's rules, already checked (nil keeps any it has);
    /// `importedWith`, the digest of the rules this import went through.
    public func importAndSubscribe(_ data: [UInt8], intoFeed slug: String, options: ImportOptions, location: String,
                                   login: String? = nil, rules: String? = nil, importedWith: String? = nil) async throws -> ImportReport {
        try authorize(.editFeed(slug))
        let batch = try await read(data, intoFeed: slug, options: options)
        let report = try await transaction { tx in
            let report = try await apply(batch, intoFeed: slug, options: options, progress: nil, tx)
            let feed = try await tx.requireFeed(slug)
            let source = try await tx.sourceId(feedId: try feed.savedID(), location: location)
            try await tx.setSubscribed(sourceId: source, true, login: login)
            if let rules { _ = try await tx.setSourceRules(sourceId: source, rules: rules) }
            if let importedWith { try await tx.recordFetch(sourceId: source, etag: nil, lastModified: nil, error: nil, importedWith: importedWith) }
            return report
        }
        await events.published(.subscriptionsChanged(feed: slug))
        return report
    }
}

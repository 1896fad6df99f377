import CountdownStore
import Foundation

extension CountdownService {
    /// Records a fetch of a feed's source: validators on success (200 or 304),
    /// the error otherwise; ends the caller's lease. The source row is made
    /// when new, so a source that never worked shows its error from the first try.
    /// `importedWith`: after an import, a digest of the rules it went through.
    public func recordFetch(feed slug: String, location: String, etag: String?, lastModified: String?, error: String?,
                            importedWith: String? = nil) async throws {
        try await authorize(.editFeed(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let source = try await tx.source(feedId: try feed.savedID(), location: location)
            try await tx.recordFetch(source, etag: etag, lastModified: lastModified, error: error, importedWith: importedWith)
        }
    }

    /// Takes the right to fetch a URL source for `duration`, unless another
    /// process (a replica) holds it: true when the caller may fetch now, so
    /// that replicas never fetch one source at once. `recordFetch` gives it back.
    public func leaseRefresh(feed slug: String, location: String, for duration: TimeInterval) async throws -> Bool {
        try await authorize(.editFeed(slug))
        return try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            // Read locked: of two replicas asking at once, one takes the lease and the other then sees it taken.
            var source = try await tx.source(feedId: try feed.savedID(), location: location)
            if let held = source.leaseUntil, held > tx.now { return false }
            source.leaseUntil = tx.now.addingTimeInterval(duration)
            _ = try await tx.save(source)
            return true
        }
    }

    /// Stops fetching `location`; what it brought stays until removed by hand.
    public func unsubscribe(feed slug: String, location: String) async throws {
        try await authorize(.manageSources(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            if var source = try await tx.sourceRow(feedId: try feed.savedID(), location: location, lock: true) {
                source.setRules(nil)
                source.subscribed = false
                source.login = nil
                _ = try await tx.save(source)
            }
        }
        await events.published(.subscriptionsChanged(feed: slug))
    }

    /// Sets the rules of a source the feed keeps fetching (nil: none), already
    /// checked by the caller; false when the feed has no such subscription.
    /// The source's validators go with the old rules: its next fetch is a full one.
    public func setSubscriptionRules(feed slug: String, location: String, rules: String?) async throws -> Bool {
        try await authorize(.manageSources(slug))
        let saved = try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            // Only a subscribed source has rules.
            guard var source = try await tx.sourceRow(feedId: try feed.savedID(), location: location, lock: true), source.subscribed else { return false }
            source.setRules(rules)
            _ = try await tx.save(source)
            return true
        }
        if saved { await events.published(.rulesChanged(feed: slug, location: location)) }
        return saved
    }

    /// Replaces the sealed logins of subscriptions, in one transaction: all of
    /// them or none (the server re-seals logins of an older format at start).
    /// A subscription stopped meanwhile is left as it is.
    public func replaceSealedLogins(_ logins: [SourceSubscription]) async throws {
        try await authorize(.administer)
        try await transaction { tx in
            for login in logins {
                guard let feed = try await tx.feedRow(slug: login.feed, lock: true), let feedId = feed.id,
                      var source = try await tx.sourceRow(feedId: feedId, location: login.location, lock: true) else { continue }
                source.subscribed = true
                source.login = login.login
                _ = try await tx.save(source)
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
        try await authorize(.manageSources(slug))
        let batch = try await read(data, intoFeed: slug, options: options)
        let report = try await transaction { tx in
            let report = try await apply(batch, intoFeed: slug, options: options, progress: nil, tx)
            let feed = try await tx.requireFeed(slug)
            var source = try await tx.source(feedId: try feed.savedID(), location: location)
            source.subscribed = true
            source.login = login
            if let rules { source.setRules(rules) }
            source = try await tx.save(source)
            if let importedWith { try await tx.recordFetch(source, etag: nil, lastModified: nil, error: nil, importedWith: importedWith) }
            return report
        }
        await events.published(.subscriptionsChanged(feed: slug))
        return report
    }
}

extension StoreTransaction {
    /// A fetch, now, which gives back the lease: on success (`error` nil) the
    /// validators given replace the old ones (nil keeps them) and
    /// `importedWith`, the digest of the rules an import went through, is
    /// kept; on failure only the error is.
    func recordFetch(_ source: SourceRecord, etag: String?, lastModified: String?, error: String?, importedWith: String?) async throws {
        var source = source
        source.lastFetchedAt = now
        source.leaseUntil = nil
        source.lastError = error
        if error == nil {
            source.lastSuccessAt = now
            source.etag = etag ?? source.etag
            source.lastModifiedHeader = lastModified ?? source.lastModifiedHeader
            source.importedWith = importedWith ?? source.importedWith
        }
        _ = try await save(source)
    }
}

extension SourceRecord {
    /// New rules, and the validators forgotten: the next fetch brings the
    /// whole calendar, so that the new rules see every event.
    mutating func setRules(_ rules: String?) {
        self.rules = rules
        etag = nil
        lastModifiedHeader = nil
    }
}

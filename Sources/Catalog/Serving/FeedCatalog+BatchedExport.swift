import Countdowns
import CountdownStore
import Foundation
import Services

extension FeedCatalog {
    /// A large feed's exported calendar while it is not compiled: written
    /// from its rows a batch at a time (`BatchedExport`), kept in the store,
    /// and answered as a kept export is (held when it fits its share of
    /// `--compiled-mb`, else sent from the store), so that `.ics` of 100,000
    /// countdowns never holds their prepared series (issue #41). One write per
    /// view at a time: requests meanwhile await it. Nil when the feed changed
    /// while it was read or the store refused the bytes: the caller compiles.
    func batchedExport(_ key: CompiledKey, stored: StoredFeed, variant: String, spelling: OtherCalendarDates, cacheKey: RenderKey) async -> Representation? {
        let task = batchedExports.withLock { running in
            // Joined only for the same revision: a write of the one before answers nil or that revision's bytes.
            if let (revision, task) = running[key], revision == stored.revision { return task }
            let task = Task { await self.writeBatched(key, revision: stored.revision, variant: variant, spelling: spelling, cacheKey: cacheKey) }
            running[key] = (stored.revision, task)
            return task
        }
        let exported = await task.value
        batchedExports.withLock { if $0[key]?.task == task { $0[key] = nil } }
        return exported
    }

    private func writeBatched(_ key: CompiledKey, revision: Int64, variant: String, spelling: OtherCalendarDates, cacheKey: RenderKey) async -> Representation? {
        let started = ContinuousClock.now
        batchedExportWrites.add(1, ordering: .relaxed)
        do {
            guard let (feed, parts) = try await BatchedExport.write(slug: key.slug, revision: revision, redaction: key.redaction, otherCalendarDates: spelling,
                                                                    imageURL: { [settings] in settings.imageURL($0) }, store: store) else { return nil }
            let length = parts.reduce(0) { $0 + $1.count }
            let exported: Representation
            if length <= largeExportBytes {
                exported = CompiledFeed.export(feed, bytes: parts.flatMap { $0 }, settings: settings)
                try await exports.keepNow(KeptExport(revision: revision, variant: variant, bytes: exported.kept), for: key.view)
            } else {
                let etag = Representation.tag(parts: parts)
                try await store.keptExports.keepExport(parts: parts, etag: etag, revision: revision, variant: variant, slug: key.slug, view: key.redaction)
                exports.noteKept(key.view, revision: revision, variant: variant)
                exported = CompiledFeed.export(feed, streamed: streamedExport(key, revision: revision, variant: variant, length: length), etag: etag,
                                               settings: settings)
            }
            cache.keep(cacheKey, exported)
            HeapTrim.now()
            logger.info("export written from the store in batches, not compiled", metadata: [
                "feed": "\(key.slug)", "view": "\(key.redaction)", "revision": "\(revision)", "countdowns": "\(feed.countdownCount)",
                "bytes": "\(length)", "held": "\(length <= largeExportBytes)", "duration": "\(ContinuousClock.now - started)",
            ])
            return exported
        } catch {
            logger.warning("cannot write an export in batches; compiling the feed", metadata: ["feed": "\(key.slug)", "error": "\(error)"])
            return nil
        }
    }
}

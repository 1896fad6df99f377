import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// Exported calendars: served from the compilation in memory, else from the
/// bytes the store (or a file) kept for the revision, else written in batches
/// or compiled; kept after each compile, and sent from the store a chunk at a
/// time when too large to hold.
extension FeedCatalog {
    /// The exported calendar (`/feeds/{slug}.ics`) as `redaction` sees it, or
    /// nil when there is no such feed or view: from the compilation in memory
    /// if there is one; else from the bytes the store kept for this revision
    /// (`KeptExport`: one read, then held in the render cache, and written as
    /// a file that the misses after read instead: `KeptExportFiles`); else compiled,
    /// which keeps the bytes for the next miss. So a server with more feeds than
    /// `--compiled-mb` holds answers a calendar client without compiling.
    package func exported(slug: String, as redaction: Redaction) async throws -> Representation? {
        let now = clock()
        guard let target = target(slug: slug, as: redaction) else { return nil }
        let key = CompiledKey(slug: slug, redaction: redaction)
        switch lookup(key, target, now: now, compiling: false) {
        case .kept(let compiled): return compiled.exported
        case .compiling(let task): if let compiled = await task.value { return compiled.exported }
        case .absent: break
        }
        // The kept export held in the render cache: what the target says is enough to find it (issue #41: the cached path copies no `StoredFeed`).
        let year = OtherCalendarDates.year(at: now, in: target.zone)
        let cacheKey = RenderKey.keptExport(slug: slug, redaction: redaction, revision: target.revision, year: year)
        if let cached = cache.cached(cacheKey) { return cached }
        guard let stored = stored(slug: slug), stored.revision == target.revision else { return try await readable(slug: slug, as: redaction)?.exported }
        let variant = exportVariant(year: year)
        if let bytes = exportFiles?.read(key, revision: target.revision, variant: variant) {
            let exported = CompiledFeed.export(stored, kept: bytes, settings: settings)
            cache.keep(cacheKey, exported)
            return exported
        }
        do {
            if let kept = try await store.keptExports.keptExport(slug: slug, view: redaction, bodyUpTo: largeExportBytes), kept.revision == target.revision,
               kept.variant == variant, let bytes = kept.bytes {
                exports.noteKept(key.view, revision: kept.revision, variant: kept.variant)
                let exported: Representation
                if bytes.length > largeExportBytes {
                    exported = CompiledFeed.export(stored, streamed: streamedExport(key, revision: kept.revision, variant: variant, length: bytes.length),
                                                   etag: bytes.etag, settings: settings)
                } else {
                    exported = CompiledFeed.export(stored, kept: bytes, settings: settings)
                    exportFiles?.keep(key, revision: kept.revision, variant: variant, bytes: bytes)
                }
                cache.keep(cacheKey, exported)
                return exported
            }
        } catch {
            logger.warning("cannot read a kept export; compiling the feed", metadata: ["feed": "\(slug)", "error": "\(error)"])
        }
        // A large feed not compiled writes its export from its rows instead (issue #41): the compile would hold every series.
        // Unless an older compilation is in memory: compiling again reuses its series (an edit of a 10k feed: 0.4 s, not 0.75).
        if stored.countdownCount >= placedReadFrom, !canRecompile(slug: slug),
           let written = await batchedExport(key, stored: stored, variant: variant, spelling: OtherCalendarDates(today: CivilDate(year: year, month: 1, day: 1)),
                                             cacheKey: cacheKey) {
            return written
        }
        return try await readable(slug: slug, as: redaction)?.exported
    }

    /// `RenderSettings.exportVariant` for a year's spelling: made when the year
    /// turns, not for every miss (a string of five parts, 1% of a miss).
    func exportVariant(year: Int) -> String {
        if let known = yearVariant.withLock({ $0.year == year ? $0.variant : nil }) { return known }
        let made = settings.exportVariant(OtherCalendarDates(today: CivilDate(year: year, month: 1, day: 1)))
        yearVariant.withLock { $0 = (year, made) }
        return made
    }

    /// The body of a kept export too large to hold, read from the store as it is sent.
    func streamedExport(_ key: CompiledKey, revision: Int64, variant: String, length: Int) -> StreamedBody {
        StreamedBody(length: length) { [store] offset in
            try await store.keptExports.keptExportChunk(slug: key.slug, view: key.redaction, revision: revision, variant: variant, offset: offset,
                                            length: StreamedBody.chunkBytes)
        }
    }

    /// `result` with its export sent from the store when it is too large to
    /// hold: kept there first (awaited, as nothing else holds the bytes after),
    /// and held after all when the store refuses.
    func sendingLargeExport(_ result: CompiledFeed, key: CompiledKey) async -> CompiledFeed {
        guard result.exported.streamed == nil, result.exported.byteCount > largeExportBytes else { return result }
        let export = KeptExport(revision: result.revision, variant: settings.exportVariant(result.otherCalendarDates), bytes: result.exported.kept)
        do {
            try await exports.keepNow(export, for: key.view)
            logger.info("export too large to hold: sent from the store", metadata: ["feed": "\(key.slug)", "bytes": "\(result.exported.byteCount)",
                                                                                  "limit": "\(largeExportBytes)"])
            return result.sendingExport(streamedExport(key, revision: export.revision, variant: export.variant, length: result.exported.byteCount))
        } catch {
            logger.warning("cannot keep a large export in the store; holding it", metadata: ["feed": "\(key.slug)", "error": "\(error)"])
            return result
        }
    }

    /// Keeps `result`'s export in the store for the misses after it, unless it
    /// is known to be kept. In the background: a read never waits on a write.
    func keepExport(_ result: CompiledFeed, key: CompiledKey, sameAsFull: Bool) {
        // One sent from the store was kept before it was made so.
        guard sameAsFull || result.exported.streamed == nil else { return }
        let variant = settings.exportVariant(result.otherCalendarDates)
        guard !exports.isKept(key.view, revision: result.revision, variant: variant) else { return }
        exports.keep(KeptExport(revision: result.revision, variant: variant, bytes: sameAsFull ? nil : result.exported.kept), for: key.view)
    }
}

import Countdowns
import Foundation
import GRDB
import ICalendar

extension CountdownStore {
    /// Imports a calendar into a feed in one transaction: upsert by (feed, UID),
    /// SEQUENCE and LAST-MODIFIED rise only on a real change, and any failure —
    /// strict-mode errors, limits, a crash — leaves the database as it was.
    /// `progress` is called with (done, total) as rows are written.
    public func importCalendar(_ data: some Collection<UInt8>, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> ImportReport {
        guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        return try importCalendar(decoded: { ICalendarParser.decode(data) }, intoFeed: slug, options: options, progress: progress)
    }

    /// Imports a file, as `importCalendar(_:…)` does. The file's bytes are let go
    /// once decoded, before the component tree is built, so a 55 MB calendar is
    /// not held twice at the peak.
    public func importCalendar(contentsOf url: URL, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> ImportReport {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        if let size, size > limits.maxInputBytes { throw StoreError.tooLarge(bytes: size, limit: limits.maxInputBytes) }
        return try importCalendar(decoded: {
            let data = try Data(contentsOf: url)
            guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
            return ICalendarParser.decode(data)
        }, intoFeed: slug, options: options, progress: progress)
    }

    private func importCalendar(decoded: () throws -> ICalendarParser.Decoded, intoFeed slug: String, options: ImportOptions,
                                progress: (@Sendable (Int, Int) -> Void)?) throws -> ImportReport {
        // The parsed calendar is read into countdowns and then let go, so the
        // component tree of a 100,000-event file is not held through the write
        // (it is the largest thing an import holds); the bytes go even earlier.
        let (countdowns, categoryColors, feedTemplate, readReport) = try read(decoded(), slug: slug, options: options)
        var report = readReport
        // The canonical text of each countdown, serialized on every core before the
        // write transaction starts (the write itself is one thread, as SQLite's is).
        let contents = countdowns.concurrentMap(CountdownRecord.content(of:))
        let now = clock()
        guard Feed.isValidSlug(slug) else { throw StoreError.invalidSlug(slug) }
        let counts = try pool.write { db -> ImportReport in
            var report = ImportReport()
            var feed = try FeedRecord.filter(Column("slug") == slug).fetchOne(db)
            if feed == nil {
                guard options.createFeed else { throw StoreError.feedNotFound(slug) }
                var record = FeedRecord(feedTemplate, now: now)
                try record.insert(db)
                feed = record
            }
            let feedId = feed!.id!
            let sourceId = try options.source.map { try SourceRecord.findOrCreate(db, feedId: feedId, location: $0).id! }
            let existing = Dictionary(uniqueKeysWithValues: try CountdownRecord.filter(Column("feedId") == feedId).fetchAll(db).map { ($0.uid, $0) })
            var seen = Set<String>()
            var categories = CategoryRecord.Linker(feedId: feedId)
            for (index, incoming) in countdowns.enumerated() {
                guard seen.insert(incoming.uid).inserted else { continue }
                let content = contents[index]
                if var record = existing[incoming.uid] {
                    if content == record.content {
                        report.unchanged += 1
                    } else {
                        record.sequence = max(record.sequence + 1, incoming.sequence)
                        record.lastModified = max(now, record.lastModified)
                        record.content = content
                        record.title = incoming.title
                        record.kind = incoming.kind.rawValue
                        record.status = incoming.status.rawValue
                        record.startsOn = incoming.target.civilDate.iso
                        record.sourceId = sourceId ?? record.sourceId
                        try record.update(db)
                        try categories.link(db, countdownId: record.id!, names: incoming.categories, replacing: true)
                        report.updated += 1
                    }
                } else {
                    var fresh = incoming
                    fresh.created = incoming.created ?? now
                    fresh.lastModified = now
                    var record = CountdownRecord(fresh, feedId: feedId, sourceId: sourceId, now: now, content: content)
                    try record.insertPrepared(db)
                    try categories.link(db, countdownId: record.id!, names: incoming.categories, replacing: false)
                    report.added += 1
                }
                if index % 500 == 499 { progress?(index + 1, countdowns.count) }
            }
            if options.sync, let sourceId {
                let vanished = existing.values.filter { $0.sourceId == sourceId && !seen.contains($0.uid) }
                for record in vanished { _ = try record.delete(db) }
                report.removed = vanished.count
            }
            try saveCategoryColors(db, feedId: feedId, colors: categoryColors)
            if let sourceId {
                try db.execute(sql: "UPDATE source SET lastFetchedAt = ?, lastSuccessAt = ?, lastError = NULL WHERE id = ?",
                               arguments: [now, now, sourceId])
            }
            if report.added + report.updated + report.removed > 0 || feed!.id == nil {
                try FeedRecord.touch(db, feedId: feedId, now: now)
            }
            return report
        }
        progress?(countdowns.count, countdowns.count)
        report.added = counts.added
        report.updated = counts.updated
        report.unchanged = counts.unchanged
        report.removed = counts.removed
        return report
    }

    /// Parses the text and reads its countdowns; the component tree dies with this call.
    private func read(_ decoded: consuming ICalendarParser.Decoded, slug: String,
                      options: ImportOptions) throws -> ([Countdown], [String: String], Feed, ImportReport) {
        let parsed: ParseResult
        // The parser counts every component (alarms and zones too); events and
        // tasks are held to `maxComponents` below, where the message names them.
        do {
            parsed = try ICalendarParser.parse(decoded, options: ParseOptions(mode: options.strict ? .strict : .lenient,
                                                                                        maxComponents: limits.maxComponents * 4 + 1000))
        } catch {
            throw StoreError.unusableCalendar(error)
        }
        let calendar = parsed.calendar
        let total = calendar.events.count + calendar.todos.count
        guard total <= limits.maxComponents else { throw StoreError.tooManyComponents(count: total, limit: limits.maxComponents) }
        var (countdowns, skipped) = CountdownReader.countdowns(in: calendar, source: options.source)
        if let filter = options.filter { countdowns = countdowns.filter(filter) }
        if options.strict, let first = skipped.first { throw StoreError.invalid(first.description) }
        var report = ImportReport()
        report.skipped = skipped.map(\.description)
        report.diagnostics = parsed.diagnostics.map(\.description)
        let feed = Feed(slug: slug, name: calendar.name ?? slug,
                        timeZone: calendar.defaultTimeZone.flatMap { Zone.named($0)?.identifier } ?? options.defaultTimeZone)
        return (countdowns, CalendarExport.categoryColors(in: calendar), feed, report)
    }
}

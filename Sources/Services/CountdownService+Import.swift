import Countdowns
import CountdownStore
import Foundation
import ICalendar

extension CountdownService {
    /// Imports a calendar into a feed in one transaction: upsert by (feed, UID),
    /// SEQUENCE and LAST-MODIFIED rise only on a real change, and any failure
    /// (strict-mode errors, limits, a crash) leaves the store as it was.
    /// `progress` is called with (done, total) as rows are written.
    ///
    /// Parsing runs on a thread of its own (`Offload`): a 50 MB calendar takes
    /// seconds of CPU, which must not hold one of the cooperative pool's threads.
    public func importCalendar(_ data: some Collection<UInt8> & Sendable, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        try await authorize(options.createFeed ? .manageFeeds : .editFeed(slug))
        return try await apply(try await read(data, intoFeed: slug, options: options), intoFeed: slug, options: options, progress: progress)
    }

    /// Parses a calendar for an import, on a thread of its own; nothing is written.
    func read(_ data: some Collection<UInt8> & Sendable, intoFeed slug: String, options: ImportOptions) async throws -> ImportBatch {
        guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let (limits, now) = (self.limits, clock())
        return try await Offload.run { try ImportBatch.read(ICalendarParser.decode(data), slug: slug, options: options, limits: limits, placedAt: now) }
    }

    /// Imports a file, as `importCalendar(_:…)` does. The file's bytes are let go
    /// once decoded, before the component tree is built, so a 55 MB calendar is
    /// not held twice at the peak.
    public func importCalendar(contentsOf url: URL, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        try await authorize(options.createFeed ? .manageFeeds : .editFeed(slug))
        let (limits, now) = (self.limits, clock())
        let batch = try await Offload.run {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            if let size, size > limits.maxInputBytes { throw StoreError.tooLarge(bytes: size, limit: limits.maxInputBytes) }
            let decoded: ICalendarParser.Decoded = try {
                let data = try Data(contentsOf: url)
                guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
                return ICalendarParser.decode(data)
            }()
            return try ImportBatch.read(decoded, slug: slug, options: options, limits: limits, placedAt: now)
        }
        return try await apply(batch, intoFeed: slug, options: options, progress: progress)
    }

    /// How many rows one primitive call writes: few enough round trips for a
    /// 100k-event import, small enough to report progress as it goes.
    static let importChunk = 500

    /// Writes what an import read, in one transaction; the decisions are
    /// `ImportPlan`'s. The feed row is locked first, so two replicas importing
    /// into one feed take turns instead of racing on its UIDs.
    public func apply(_ batch: ImportBatch, intoFeed slug: String, options: ImportOptions,
                      progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        try await authorize(options.createFeed ? .manageFeeds : .editFeed(slug))
        if options.refuseNothingUsable, batch.countdowns.isEmpty, !batch.report.skipped.isEmpty {
            throw StoreError.invalid(Self.nothingUsable(batch.report))
        }
        let report = try await transaction { tx in try await apply(batch, intoFeed: slug, options: options, progress: progress, tx) }
        progress?(batch.countdowns.count, batch.countdowns.count)
        return report
    }

    /// Why nothing of a calendar could be imported: how many items were
    /// skipped, and the first reason with its line.
    static func nothingUsable(_ report: ImportReport) -> String {
        let reason = report.errors.first ?? report.skipped[0]
        return "nothing was imported: \(report.skipped.count == 1 ? "its only item was" : "all \(report.skipped.count) of its items were") skipped "
            + "(\(reason)); nothing was changed"
    }

    /// The import's writes, as a step of a larger use case.
    func apply(_ batch: ImportBatch, intoFeed slug: String, options: ImportOptions, progress: (@Sendable (Int, Int) -> Void)?,
               _ tx: any StoreTransaction) async throws -> ImportReport {
        let now = tx.now
        let found = try await tx.feedRow(slug: slug, lock: true)
        let created = found == nil
        let feed: FeedRecord
        if let found {
            feed = found
        } else {
            guard options.createFeed else { throw StoreError.feedNotFound(slug) }
            feed = try await tx.save(FeedRecord(batch.feedTemplate, now: now))
        }
        let feedId = try feed.savedID()
        var source = try await options.source.asyncMap { try await tx.source(feedId: feedId, location: $0) }
        let sourceId = source?.id
        // Places made before the transaction, unless the store's clock reads earlier than the one they were made by (a test's).
        let places: [PlaceBound?] = batch.placedAt <= now ? batch.places : Array(repeating: nil, count: batch.countdowns.count)
        let existing = try await tx.countdownRows(.feed(feedId, uid: nil)).reduce(into: [String: CountdownState]()) { states, row in
            states[row.uid] = CountdownState(row)
        }
        let rivals = try await rivals(for: options, sourceId: sourceId, existing: existing, feedId: feedId, tx)
        let plan = ImportPlan(batch: batch, existing: existing, sourceId: sourceId, sync: options.sync, now: now, rivals: rivals)
        // A source the server fetches is named by its address; anything else by who imported it.
        let actor = principal == .system ? ChangeActor(label: options.source.map { String($0.prefix(200)) } ?? principal.actorLabel, personId: nil)
            : principal.changeActor
        var wrote = false
        for start in stride(from: 0, to: plan.steps.count, by: Self.importChunk) {
            let end = min(start + Self.importChunk, plan.steps.count)
            var updates: [CountdownRecord] = [], updatedLinks: [CategoryLinks] = []
            var inserts: [CountdownRecord] = [], insertedNames: [[String]] = []
            for step in plan.steps[start..<end] {
                switch step {
                case .unchanged:
                    break
                case .update(let index, let id, let sequence, let lastModified):
                    let incoming = batch.countdowns[index]
                    var row = CountdownRecord(incoming, feedId: feedId, sourceId: sourceId ?? existing[incoming.uid]?.sourceId, now: now,
                                              content: batch.contents[index], place: places[index])
                    row.id = id
                    row.sequence = sequence
                    row.lastModified = lastModified
                    row.changedBy = actor.label
                    row.changedByPerson = actor.personId
                    updates.append(row)
                    updatedLinks.append(CategoryLinks(countdownId: id, names: incoming.categories))
                case .insert(let index):
                    var fresh = batch.countdowns[index]
                    fresh.created = fresh.created ?? now
                    fresh.lastModified = now
                    fresh.createdBy = actor.label
                    fresh.changedBy = actor.label
                    var insert = CountdownRecord(fresh, feedId: feedId, sourceId: sourceId, now: now, content: batch.contents[index], place: places[index])
                    insert.changedByPerson = actor.personId
                    inserts.append(insert)
                    insertedNames.append(fresh.categories)
                }
            }
            try tx.checkSize(updates + inserts, limit: limits.maxCountdownBytes)
            wrote = wrote || !updates.isEmpty || !inserts.isEmpty
            if !updates.isEmpty {
                _ = try await tx.saveCountdowns(updates)
                try await tx.log(.changed, updates, by: actor)
                try await tx.link(updatedLinks, feedId: feedId, replacing: true)
            }
            if !inserts.isEmpty {
                let ids = try await tx.saveCountdowns(inserts)
                try await tx.log(.added, zip(ids, inserts).map { id, row in var row = row; row.id = id; return row }, by: actor)
                try await tx.link(zip(ids, insertedNames).map { CategoryLinks(countdownId: $0, names: $1) }, feedId: feedId, replacing: false)
            }
            if end - start == Self.importChunk { progress?(end, plan.steps.count) }
        }
        if !plan.removals.isEmpty {
            let removed = Set(plan.removals)
            try await tx.appendChanges(existing.filter { removed.contains($0.value.id) }.sorted { $0.value.id < $1.value.id }.map { uid, state in
                ChangeRecord(feedId: feedId, countdownId: state.id, uid: uid, kind: .deleted, title: state.title, actor: actor.label, at: now,
                             actorPerson: actor.personId)
            })
            try await tx.delete(CountdownRecord.self, ids: plan.removals)
            let gone = existing.filter { removed.contains($0.value.id) }.map(\.key)
            try await tx.deleteDavObjects(feedId: feedId, uids: gone)
            try await tx.deletePersonalObjects(feedId: feedId, uids: gone, personId: nil)
        }
        try await tx.saveCategories(feedId: feedId, colors: batch.categoryColors, links: [], replacing: false)
        if var imported = source {
            imported.lastFetchedAt = now
            imported.lastSuccessAt = now
            imported.lastError = nil
            source = try await tx.save(imported)
        }
        // After the removals: what the owner holds once this import is in.
        if wrote { try await tx.checkQuota(feedId: feedId) }
        if plan.changesFeed || created { try await tx.touch(feedId: feedId) }
        return plan.report(from: batch)
    }

    /// The other sources' rows an import compares against under its
    /// `DuplicatePolicy`; nil without one, or when this source is not in it.
    /// Title-and-start keys of existing rows are read back from their stored
    /// text, only for rows of the ranked sources.
    func rivals(for options: ImportOptions, sourceId: Int64?, existing: [String: CountdownState], feedId: Int64,
                _ tx: any StoreTransaction) async throws -> ImportPlan.Rivals? {
        guard let policy = options.duplicates, let location = options.source, let rank = policy.rank(of: location) else { return nil }
        var ranks: [Int64: Int] = [:]
        var locations: [Int64: String] = [:]
        for (other, place) in zip(policy.preference.indices, policy.preference) where place != location {
            if let id = try await tx.sourceRow(feedId: feedId, location: place)?.id, id != sourceId {
                ranks[id] = other
                locations[id] = place
            }
        }
        var byTitle: [String: ImportPlan.Rivals.Row] = [:]
        if policy.key == .titleAndStart, !ranks.isEmpty {
            for (uid, row) in existing {
                guard let owner = row.sourceId, let rank = ranks[owner], let place = locations[owner],
                      let countdown = try? CountdownArchive.countdown(from: row.content) else { continue }
                let key = policy.titleAndStart(of: countdown, from: place)
                if let held = byTitle[key], held.rank <= rank { continue }
                byTitle[key] = .init(id: row.id, uid: uid, rank: rank)
            }
        }
        var titleKey: (@Sendable (Countdown) -> String)?
        if policy.key == .titleAndStart { titleKey = { @Sendable countdown in policy.titleAndStart(of: countdown, from: location) } }
        return ImportPlan.Rivals(rank: rank, ranks: ranks, byTitle: byTitle, titleKey: titleKey)
    }
}

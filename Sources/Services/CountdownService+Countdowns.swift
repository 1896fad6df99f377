import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Adds a countdown by hand (sequence 0, created and modified now), with
    /// its image when one comes along.
    @discardableResult
    public func add(_ countdown: Countdown, toFeed slug: String, image: ImageUpload? = nil) async throws -> Countdown {
        try await authorize(.editFeed(slug))
        return try await transaction { tx in
            var countdown = countdown
            if let image { countdown.presentation.image = try await tx.put(image) }
            return try await add(countdown, toFeed: slug, tx)
        }
    }

    /// Saves an edited countdown; SEQUENCE and LAST-MODIFIED rise only when something changed.
    @discardableResult
    public func update(_ countdown: Countdown) async throws -> Countdown {
        try await authorize(.editCountdown(try countdown.savedID()))
        return try await transaction { tx in try await update(countdown, tx) }
    }

    public func delete(id: Int64) async throws {
        try await authorize(.editCountdown(id))
        try await transaction { tx in try await remove(try await tx.requireCountdown(id, lock: true), tx) }
    }

    /// Moves a countdown to another feed, keeping its UID (so clients of both
    /// feeds see one event leave and the same event arrive). SEQUENCE rises, and
    /// both feeds change revision. Refused when the target already has that UID.
    @discardableResult
    public func move(id: Int64, toFeed slug: String) async throws -> Countdown {
        try await authorize(.editCountdown(id))
        try await authorize(.editFeed(slug))
        return try await transaction { tx in try await move(id: id, toFeed: slug, tx) }
    }

    /// Puts back a countdown that was deleted (the web app's Undo), with its UID,
    /// and a SEQUENCE above the one it had, so that clients take it as news.
    @discardableResult
    public func restore(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown {
        try await authorize(.editFeed(slug))
        return try await transaction { tx in try await insertNew(CountdownStamps.restored(countdown, now: tx.now), toFeed: slug, tx) }
    }

    /// The countdown form's save, new or edited: its image, the countdown and a
    /// move to another feed, all or nothing.
    @discardableResult
    public func save(_ countdown: Countdown, inFeed slug: String, image: ImageUpload?, moveTo target: String?) async throws -> Countdown {
        try await authorize(.editFeed(slug))
        if let target { try await authorize(.editFeed(target)) }
        return try await transaction { tx in
            var countdown = countdown
            if let image { countdown.presentation.image = try await tx.put(image) }
            var saved = countdown.id == nil ? try await add(countdown, toFeed: slug, tx) : try await update(countdown, tx)
            if let target, target != slug { saved = try await move(id: try saved.savedID(), toFeed: target, tx) }
            return saved
        }
    }

    /// Gives a countdown a new image, or none.
    @discardableResult
    public func replaceImage(ofCountdown id: Int64, with image: ImageUpload?) async throws -> Countdown {
        try await authorize(.editCountdown(id))
        return try await transaction { tx in
            var countdown = try await tx.countdown(try await tx.requireCountdown(id, lock: true))
            countdown.presentation.image = try await image.asyncMap { try await tx.put($0) }
            return try await update(countdown, tx)
        }
    }

    // MARK: steps

    /// Deletes a countdown's row, filing the deletion and bumping its feed's revision.
    func remove(_ row: CountdownRecord, _ tx: any StoreTransaction) async throws {
        try await tx.log(.deleted, [row], by: principal.changeActor)
        try await tx.delete(CountdownRecord.self, ids: [try row.savedID()])
        // The text a calendar app wrote goes with it, and each person's own alarms on it.
        try await tx.deleteDavObjects(feedId: row.feedId, uids: [row.uid])
        try await tx.deletePersonalObjects(feedId: row.feedId, uids: [row.uid], personId: nil)
        try await tx.touch(feedId: row.feedId)
    }

    func add(_ countdown: Countdown, toFeed slug: String, _ tx: any StoreTransaction) async throws -> Countdown {
        try await insertNew(CountdownStamps.added(countdown, now: tx.now), toFeed: slug, tx)
    }

    /// Inserts an already stamped countdown as a new row of the feed (add and
    /// restore); refused when the feed already has its UID.
    func insertNew(_ stamped: Countdown, toFeed slug: String, _ tx: any StoreTransaction) async throws -> Countdown {
        let feedId = try await tx.requireFeed(slug, lock: true).savedID()
        guard try await tx.countdownRows(.feed(feedId, uid: stamped.uid)).isEmpty else { throw StoreError.duplicateUID(stamped.uid, feed: slug) }
        var saved = stamped
        saved.createdBy = principal.actorLabel
        saved.changedBy = principal.actorLabel
        var record = CountdownRecord(saved, feedId: feedId, sourceId: nil, now: tx.now)
        record.changedByPerson = principal.changeActor.personId
        try tx.checkSize([record], limit: limits.maxCountdownBytes)
        guard let id = try await tx.saveCountdowns([record]).first else { throw StoreError.unsaved("countdown") }
        try await tx.checkQuota(feedId: feedId)
        record.id = id
        try await tx.log(.added, [record], by: principal.changeActor)
        try await tx.link([CategoryLinks(countdownId: id, names: saved.categories)], feedId: feedId, replacing: false)
        try await tx.touch(feedId: feedId)
        saved.id = id
        return saved
    }

    /// `asWritten`: the stamps are the writer's (`CountdownStamps.written`, a calendar app's PUT).
    func update(_ countdown: Countdown, asWritten: Bool = false, _ tx: any StoreTransaction) async throws -> Countdown {
        guard let id = countdown.id else { throw StoreError.invalid("the countdown has no id; add it first") }
        let row = try await tx.requireCountdown(id, lock: true)
        let content = CountdownRecord.content(of: countdown)
        guard content != row.content || (asWritten && countdown.sequence != row.sequence) else { return try row.countdown(source: countdown.source) }
        var edited = asWritten ? CountdownStamps.written(countdown, row: row, now: tx.now) : CountdownStamps.edited(countdown, row: row, now: tx.now)
        edited.createdBy = row.createdBy
        edited.changedBy = principal.actorLabel
        var replacement = CountdownRecord(edited, feedId: row.feedId, sourceId: row.sourceId, now: tx.now, content: content)
        replacement.id = id
        replacement.changedByPerson = principal.changeActor.personId
        // Only growth is refused: an owner over a lowered quota may still shrink and delete.
        if content.utf8.count > row.content.utf8.count { try tx.checkSize([replacement], limit: limits.maxCountdownBytes) }
        _ = try await tx.saveCountdowns([replacement])
        if content.utf8.count > row.content.utf8.count || (!row.content.contains(StoredImage.scheme) && content.contains(StoredImage.scheme)) {
            try await tx.checkQuota(feedId: row.feedId)
        }
        try await tx.log(.changed, [replacement], by: principal.changeActor)
        try await tx.link([CategoryLinks(countdownId: id, names: edited.categories)], feedId: row.feedId, replacing: true)
        try await tx.touch(feedId: row.feedId)
        return edited
    }

    func move(id: Int64, toFeed slug: String, _ tx: any StoreTransaction) async throws -> Countdown {
        var row = try await tx.requireCountdown(id, lock: true)
        let targetId = try await tx.requireFeed(slug, lock: true).savedID()
        guard targetId != row.feedId else { return try row.countdown(source: nil) }
        guard try await tx.countdownRows(.feed(targetId, uid: row.uid)).isEmpty else { throw StoreError.duplicateUID(row.uid, feed: slug) }
        let names = try row.countdown(source: nil).categories
        let from = row.feedId
        try await tx.log(.movedAway, [row], by: principal.changeActor)
        try await tx.deleteDavObjects(feedId: row.feedId, uids: [row.uid])
        try await tx.deletePersonalObjects(feedId: row.feedId, uids: [row.uid], personId: nil)
        row.feedId = targetId
        row.sourceId = nil
        row.sequence += 1
        row.lastModified = max(tx.now, row.lastModified)
        row.changedBy = principal.actorLabel
        row.changedByPerson = principal.changeActor.personId
        _ = try await tx.saveCountdowns([row])
        try await tx.checkQuota(feedId: targetId)
        try await tx.log(.movedHere, [row], by: principal.changeActor)
        try await tx.link([CategoryLinks(countdownId: id, names: names)], feedId: targetId, replacing: true)
        try await tx.touch(feedId: from)
        try await tx.touch(feedId: targetId)
        return try row.countdown(source: nil)
    }

    /// A copy of a countdown in its feed, under a new UID and "(copy)" after
    /// its title; not tied to the source the original came from, and without
    /// its moved or cancelled instances.
    @discardableResult
    public func duplicate(id: Int64) async throws -> Countdown {
        try await authorize(.editCountdown(id))
        let (original, slug) = try await store.countdown(id: id)
        var copy = original
        var generator = SystemRandomNumberGenerator()
        copy.id = nil
        copy.uid = StableUID.generate(using: &generator)
        copy.title = SafeText.title(original.title + " (copy)")
        copy.source = nil
        copy.overrides = []
        return try await transaction { [copy] tx in try await add(copy, toFeed: slug, tx) }
    }

    /// A task marked done (now), or open again; refused for an event.
    @discardableResult
    public func setDone(id: Int64, _ done: Bool) async throws -> Countdown {
        try await authorize(.editCountdown(id))
        return try await transaction { tx in
            var countdown = try await tx.requireCountdown(id, lock: true).countdown(source: nil)
            guard countdown.kind == .task else { throw StoreError.invalid("only a task can be marked done or reopened") }
            if done { countdown.complete(at: tx.now) } else { countdown.reopen() }
            return try await update(countdown, tx)
        }
    }
}

import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// Feeds as calendars for calendar apps (CalDAV, issue #38): listings and
/// changes read from stored rows and the change log, writes as the same use
/// cases as the web app's edits (same checks, history, revision bump).
extension CountdownService {
    /// Every object of `slug`'s calendar (or those with `uids`), with the newest change.
    public func calendarListing(feed slug: String, uids: [String]? = nil) async throws -> CalendarListing {
        try await authorize(.readFeed(slug))
        return try await store.read { reader in
            let row = try await reader.requireFeed(slug)
            let feedId = try row.savedID()
            let feed = try await reader.storedFeed(row)
            var rows = try await reader.countdownRows(.feed(feedId, uid: nil))
            if let uids {
                let wanted = Set(uids)
                rows = rows.filter { wanted.contains($0.uid) }
            }
            let names = try await reader.davNameRows(feedId: feedId, .uids(rows.map(\.uid))).reduce(into: [String: String]()) { $0[$1.uid] = $1.name }
            let newest = try await reader.changeRows(ChangeQuery(feedIds: [feedId], limit: 1, newestFirst: true)).first?.id ?? 0
            return CalendarListing(feed: feed, objects: rows.map { CalendarObject(row: $0, name: names[$0.uid]) }, newestChange: newest)
        }
    }

    /// The newest change of each feed's log (their sync tokens), by slug.
    public func newestChanges(feeds slugs: [String]) async throws -> [String: Int64] {
        for slug in slugs { try await authorize(.readFeed(slug)) }
        return try await store.read { reader in
            var newest: [String: Int64] = [:]
            for slug in slugs {
                guard let id = try await reader.feedRow(slug: slug)?.id else { continue }
                newest[slug] = try await reader.changeRows(ChangeQuery(feedIds: [id], limit: 1, newestFirst: true)).first?.id ?? 0
            }
            return newest
        }
    }

    /// The object `name` of `slug`'s calendar, or nil.
    public func calendarObject(feed slug: String, name: String) async throws -> CalendarObject? {
        try await authorize(.readFeed(slug))
        return try await store.read { reader in
            try await Self.object(named: name, feedId: try await reader.requireFeed(slug).savedID(), reader)
        }
    }

    /// How long the change log keeps a change: a calendar app away longer syncs again from the start.
    public static let changeLogKeeps: TimeInterval = 90 * 86_400

    /// Forgets the changes older than `changeLogKeeps`, remembering the newest
    /// one forgotten (`SettingKey.changeLogFloor`); returns its id (0: none).
    /// The server does it once an hour.
    @discardableResult
    public func pruneChangeLog() async throws -> Int64 {
        try await authorize(.administer)
        return try await store.transaction { tx in
            let newest = try await Self.deleteChanges(before: tx.now.addingTimeInterval(-Self.changeLogKeeps), tx)
            let floor = Int64(try await tx.setting(.changeLogFloor) ?? "") ?? 0
            if newest > floor { try await tx.setSetting(.changeLogFloor, to: String(newest)) }
            return newest
        }
    }

    /// Deletes the oldest changes, those made before `date`, a batch at a
    /// time; returns the newest id deleted (0: none). Ids grow with time, so
    /// the first change kept ends it, and every id up to the one returned is gone.
    private static func deleteChanges(before date: Date, _ tx: any StoreTransaction) async throws -> Int64 {
        var newest: Int64 = 0
        while true {
            let batch = try await tx.changeRows(ChangeQuery(feedIds: nil, after: newest, limit: 1_000, newestFirst: false))
            let old = batch.prefix { $0.at < date }
            guard let last = old.last else { return newest }
            try await tx.delete(ChangeRecord.self, ids: old.compactMap(\.id))
            newest = try last.savedID()
            if old.count < batch.count || batch.count < 1_000 { return newest }
        }
    }

    /// The changes of `slug`'s calendar after change `after`, oldest first,
    /// and the newest change (`after` when there is none), in one read; nil
    /// when `after` is older than what the log keeps, or newer than its
    /// newest change (a backup restored): the app must sync from the start.
    public func calendarChanges(feed slug: String, after: Int64) async throws -> (changes: [ChangeRecord], names: [String: String], newest: Int64)? {
        try await authorize(.readFeed(slug))
        return try await store.read { reader in
            if after < Int64(try await reader.setting(.changeLogFloor) ?? "") ?? 0 { return nil }
            let feedId = try await reader.requireFeed(slug).savedID()
            let changes = try await reader.changeRows(ChangeQuery(feedIds: [feedId], after: after, limit: 1_000_000, newestFirst: false))
            if changes.isEmpty, after > 0, after > (try await reader.changeRows(ChangeQuery(feedIds: [feedId], limit: 1, newestFirst: true)).first?.id ?? 0) {
                return nil
            }
            let names = try await reader.davNameRows(feedId: feedId, .uids(Array(Set(changes.map(\.uid))))).reduce(into: [String: String]()) {
                $0[$1.uid] = $1.name
            }
            return (changes, names, changes.last?.id ?? after)
        }
    }

    /// A calendar app's PUT: `data` (one event or task, with its overrides)
    /// becomes the object `name` of `slug`'s calendar, new or replacing the
    /// one there. `ifMatch` and `ifNoneMatch` are the request's preconditions.
    /// Returns whether it was new.
    @discardableResult
    public func putCalendarObject(_ data: [UInt8], feed slug: String, name: String, ifMatch: String?, ifNoneMatch: Bool) async throws -> Bool {
        try await authorize(.editFeed(slug))
        guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let calendar: VCalendar
        do { calendar = try ICalendarParser.parse(ICalendarParser.decode(data), options: ParseOptions(mode: .lenient, maxComponents: 1_000)).calendar }
        catch { throw StoreError.unusableCalendar(error) }
        if calendar.events.isEmpty, calendar.todos.isEmpty {
            throw CalendarObjectRefusal.unsupportedComponent(calendar.otherComponents.first?.name ?? "an empty calendar")
        }
        let (countdowns, skipped) = CountdownReader.countdowns(in: calendar, source: nil)
        guard countdowns.count == 1, let incoming = countdowns.first else {
            throw CalendarObjectRefusal.notOneObject(countdowns.isEmpty
                ? "the object holds no event or task tminus can keep\(skipped.first.map { ": \($0)" } ?? "")"
                : "an object holds one event or task (with its overrides), not \(countdowns.count)")
        }
        return try await transaction { tx in
            let feedId = try await tx.requireFeed(slug, lock: true).savedID()
            let existing = try await Self.object(named: name, feedId: feedId, tx)
            if let existing, existing.uid != incoming.uid {
                throw CalendarObjectRefusal.uidConflict(uid: incoming.uid, name: existing.name)
            }
            if existing == nil, let other = try await tx.countdownRows(.feed(feedId, uid: incoming.uid)).first {
                let names = try await tx.davNameRows(feedId: feedId, .uids([other.uid]))
                throw CalendarObjectRefusal.uidConflict(uid: incoming.uid, name: names.first?.name ?? CalendarObject.defaultName(uid: other.uid))
            }
            if ifNoneMatch, existing != nil { throw CalendarObjectRefusal.preconditionFailed("the object exists (If-None-Match: *)") }
            if let ifMatch, ifMatch != "*" || existing == nil, ifMatch != existing?.etag {
                throw CalendarObjectRefusal.preconditionFailed("the object changed since it was read (If-Match \(ifMatch.prefix(80)))")
            }
            if let existing {
                if existing.fromSource { throw CalendarObjectRefusal.fromSource(existing.row.title) }
                var replacing = incoming
                replacing.id = try existing.row.savedID()
                _ = try await update(replacing, asWritten: true, tx)
            } else {
                _ = try await insertNew(CountdownStamps.written(incoming, row: nil, now: tx.now), toFeed: slug, tx)
            }
            if name != CalendarObject.defaultName(uid: incoming.uid) {
                try await tx.saveDavName(DavNameRecord(feedId: feedId, uid: incoming.uid, name: name))
            }
            return existing == nil
        }
    }

    /// A calendar app's DELETE of the object `name`; false when there is none.
    public func deleteCalendarObject(feed slug: String, name: String, ifMatch: String?) async throws -> Bool {
        try await authorize(.editFeed(slug))
        return try await transaction { tx in
            let feedId = try await tx.requireFeed(slug, lock: true).savedID()
            guard let existing = try await Self.object(named: name, feedId: feedId, tx) else { return false }
            if let ifMatch, ifMatch != "*", ifMatch != existing.etag {
                throw CalendarObjectRefusal.preconditionFailed("the object changed since it was read (If-Match \(ifMatch.prefix(80)))")
            }
            if existing.fromSource { throw CalendarObjectRefusal.fromSource(existing.row.title) }
            try await remove(existing.row, tx)
            return true
        }
    }

    /// The object a name stands for: the countdown a client named so, or the one whose UID it was made from.
    static func object(named name: String, feedId: Int64, _ reader: any StoreReader) async throws -> CalendarObject? {
        if let named = try await reader.davNameRows(feedId: feedId, .name(name)).first {
            return try await reader.countdownRows(.feed(feedId, uid: named.uid)).first.map { CalendarObject(row: $0, name: name) }
        }
        guard name.hasSuffix(".ics") else { return nil }
        let uid = String(name.dropLast(4))
        guard let row = try await reader.countdownRows(.feed(feedId, uid: uid)).first else { return nil }
        let custom = try await reader.davNameRows(feedId: feedId, .uids([uid])).first?.name
        return CalendarObject(row: row, name: custom ?? name)
    }
}

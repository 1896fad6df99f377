import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// Feeds as calendars for calendar apps (CalDAV, issue #38): listings and
/// changes read from stored rows and the change log, writes as the same use
/// cases as the web app's edits (same checks, history, revision bump).
extension CountdownService {
    /// Every object of `slug`'s calendar (or those with `uids`), with the newest
    /// change; with `bodies`, the text of those kept as calendar apps wrote them
    /// (what a `calendar-data` answer sends), else only their ETags.
    public func calendarListing(feed slug: String, uids: [String]? = nil, bodies: Bool = false) async throws -> CalendarListing {
        if try await isBusyOnly(slug) { return try await busyListing(feed: slug) }
        return try await store.read { reader in
            let row = try await reader.requireFeed(slug)
            let feedId = try row.savedID()
            let feed = try await reader.storedFeed(row)
            let rows = if let uids { try await reader.countdownRows(.uids(feedId: feedId, uids)) } else { try await reader.countdownRows(.feed(feedId, uid: nil)) }
            var kept = try await reader.davObjectRows(DavObjectQuery(feedId: feedId, uids: uids, bodies: bodies))
            // A task without a date is searched in its text: read it whatever was asked (there are few).
            if !bodies, kept.contains(where: \.isUndated) {
                let undated = try await reader.davObjectRows(DavObjectQuery(feedId: feedId, uids: uids, bodies: true, undatedOnly: true))
                kept = kept.filter { !$0.isUndated } + undated
            }
            let keptByUID = Dictionary(kept.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
            let undated = kept.filter(\.isUndated)
            let names = try await reader.davNameRows(feedId: feedId, .uids(rows.map(\.uid) + undated.map(\.uid)))
                .reduce(into: [String: String]()) { $0[$1.uid] = $1.name }
            let newest = try await reader.changeRows(ChangeQuery(feedIds: [feedId], limit: 1, newestFirst: true)).first?.id ?? 0
            let objects = rows.map { CalendarObject(row: $0, name: names[$0.uid], kept: keptByUID[$0.uid]) }
                + undated.map { CalendarObject(undated: $0, name: names[$0.uid]) }
            return CalendarListing(feed: feed, objects: objects, newestChange: newest)
        }
    }

    /// Whether the principal sees `slug`'s calendar as busy time only (a
    /// `busy` member of its space); throws when they may not see even that.
    public func isBusyOnly(_ slug: String) async throws -> Bool {
        do {
            try await authorize(.readFeed(slug))
            return false
        } catch is Authorization.Refused {
            try await authorize(.readBusyTimes(slug))
            return true
        }
    }

    /// A busy-only member's calendar: each dated countdown as busy time
    /// (`CalendarObject.busyOnly`), no task without a date (it has no time),
    /// and none of the names clients gave.
    private func busyListing(feed slug: String) async throws -> CalendarListing {
        try await store.read { reader in
            let row = try await reader.requireFeed(slug)
            let feedId = try row.savedID()
            let feed = try await reader.storedFeed(row)
            let objects = try await reader.countdownRows(.feed(feedId, uid: nil)).map { CalendarObject(row: $0, name: nil).busyOnly() }
            let newest = try await reader.changeRows(ChangeQuery(feedIds: [feedId], limit: 1, newestFirst: true)).first?.id ?? 0
            return CalendarListing(feed: feed, objects: objects, newestChange: newest, isBusyOnly: true)
        }
    }

    /// When `slug`'s events make its people busy within `window` (`BusyTimes`):
    /// all a busy-only member sees of it, and anyone who reads it may ask.
    public func busyTimes(feed slug: String, within window: DateInterval) async throws -> [DateInterval] {
        try await authorize(.readBusyTimes(slug))
        let (feed, countdowns) = try await store.read { reader in
            let row = try await reader.requireFeed(slug)
            return (try await reader.storedFeed(row).feed, try await reader.countdownRows(.feed(try row.savedID(), uid: nil)).compactMap { try? $0.countdown(source: nil) })
        }
        return BusyTimes.periods(of: countdowns, feed: feed, within: window)
    }

    /// The signed-in person's own parts of `slug`'s objects (`PersonalPart`),
    /// by UID: none but on a space's calendar, read by a person who sees it whole;
    /// with `after`, only those saved since (a sync's).
    public func personalParts(feed slug: String, uids: [String]? = nil, after: Int64? = nil) async throws -> [String: PersonalObjectRecord] {
        guard case .person(let person) = principal, try await !isBusyOnly(slug) else { return [:] }
        return try await store.read { reader in
            guard let row = try await reader.feedRow(slug: slug), row.spaceId != nil else { return [:] }
            let rows = try await reader.personalObjectRows(PersonalObjectQuery(personId: person.id, feedId: try row.savedID(), uids: uids, after: after))
            return Dictionary(rows.map { ($0.uid, $0) }, uniquingKeysWith: { _, newer in newer })
        }
    }

    /// The version of `slug`'s feed: a listing of the same version is still
    /// the calendar's (every write to its objects, names and log raises the
    /// revision), so a server keeps listings by it and asks the store only this.
    public func calendarVersion(feed slug: String) async throws -> CalendarVersion {
        let busyOnly = try await isBusyOnly(slug)
        return try await store.read { reader in
            var version = CalendarVersion(try await reader.requireFeed(slug))
            version.isBusyOnly = busyOnly
            return version
        }
    }

    /// The text of the objects of `slug` with these UIDs that are kept as
    /// their apps wrote them, by UID, each with the ETag it was kept under.
    public func keptTexts(feed slug: String, uids: [String]) async throws -> [String: DavObjectRecord] {
        try await authorize(.readFeed(slug))
        guard !uids.isEmpty else { return [:] }
        return try await store.read { reader in
            let feedId = try await reader.requireFeed(slug).savedID()
            return Dictionary(try await reader.davObjectRows(DavObjectQuery(feedId: feedId, uids: uids, bodies: true)).map { ($0.uid, $0) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    /// The tasks of `slug` that have no date yet (kept only as calendar apps
    /// wrote them), by title: a feed's page lists them beside its countdowns.
    public func undatedTasks(feed slug: String) async throws -> [DavObjectRecord] {
        try await authorize(.readFeed(slug))
        return try await store.read { reader in
            let feedId = try await reader.requireFeed(slug).savedID()
            return try await reader.davObjectRows(DavObjectQuery(feedId: feedId, bodies: false, undatedOnly: true))
                .sorted { ($0.title.lowercased(), $0.uid) < ($1.title.lowercased(), $1.uid) }
        }
    }

    /// The newest change of each feed's log (their sync tokens), by slug.
    public func newestChanges(feeds slugs: [String]) async throws -> [String: Int64] {
        for slug in slugs { try await authorize(.readBusyTimes(slug)) }
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
        if try await isBusyOnly(slug) { return try await busyListing(feed: slug).objects.first { $0.name == name } }
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
        try await authorize(.readBusyTimes(slug))
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
    /// one there, kept as it came (the countdown is derived from it). A task
    /// without DTSTART or DUE is kept as an object only, with no countdown
    /// until it is given a date. `ifMatch` and `ifNoneMatch` are the request's
    /// preconditions. Returns whether it was new, and the object's ETag.
    ///
    /// On a space's calendar, a person's alarms and TRANSP are their own
    /// (`PersonalPart`): a write that changes only those (the rest is the
    /// object as `current` writes it) is kept for them alone, which a viewer
    /// may do too; a change to the rest needs an editor, and keeps their part
    /// theirs, the object's own alarms staying what everyone else sees.
    @discardableResult
    public func putCalendarObject(_ data: [UInt8], feed slug: String, name: String, ifMatch: String?, ifNoneMatch: Bool,
                                  current: (@Sendable (CalendarObject, Feed) -> String?)? = nil) async throws -> (created: Bool, etag: String) {
        try await authorize(.readFeed(slug))
        let canEdit = (try? await authorize(.editFeed(slug))) != nil
        let refusal = Authorization.Refused(principal: principal, permission: .editFeed(slug))
        guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let decoded = ICalendarParser.decode(data)
        let written: VCalendar
        do { written = try ICalendarParser.parse(decoded, options: ParseOptions(mode: .lenient, maxComponents: 1_000)).calendar }
        catch { throw StoreError.unusableCalendar(error) }
        if written.events.isEmpty, written.todos.isEmpty {
            throw CalendarObjectRefusal.unsupportedComponent(written.otherComponents.first?.name ?? "an empty calendar")
        }
        let writtenObject = try Self.writtenObject(written)
        let writer: Int64? = if case .person(let person) = principal { person.id } else { nil }
        return try await transaction { tx in
            // What is kept: as written, unless a person's own alarms are taken out of it (below).
            var (text, calendar, incoming) = (decoded.text, written, writtenObject)
            let feedRow = try await tx.requireFeed(slug, lock: true)
            let feedId = try feedRow.savedID()
            let shared = try await Self.object(named: name, feedId: feedId, tx)
            // A person's own part counts only on a space's calendar, where others read the same objects.
            let personalOf = feedRow.spaceId == nil ? nil : writer
            let own = if let personalOf, let shared {
                try await tx.personalObjectRows(PersonalObjectQuery(personId: personalOf, feedId: feedId, uids: [shared.uid])).first
            } else { PersonalObjectRecord?.none }
            let existing = shared?.with(personal: own)
            if let existing, existing.uid != incoming.uid {
                throw CalendarObjectRefusal.uidConflict(uid: incoming.uid, name: existing.name)
            }
            if existing == nil, let other = try await Self.object(uid: incoming.uid, feedId: feedId, tx) {
                throw CalendarObjectRefusal.uidConflict(uid: incoming.uid, name: other.name)
            }
            if ifNoneMatch, existing != nil { throw CalendarObjectRefusal.preconditionFailed("the object exists (If-None-Match: *)") }
            if let ifMatch, ifMatch != "*" || existing == nil, ifMatch != existing?.etag {
                throw CalendarObjectRefusal.preconditionFailed("the object changed since it was read (If-Match \(ifMatch.prefix(80)))")
            }
            // On a space's calendar, the writer's own part first: alone, it changes nothing of the object.
            var ownBody: String?
            if let personalOf, let shared, let everyones = try await Self.current(shared, render: current, feedRow, tx) {
                switch Self.split(calendar, against: everyones) {
                case .ownPartOnly(let body):
                    guard body != own?.body ?? "" else { return (false, existing?.etag ?? shared.etag) }
                    let saved = try await tx.savePersonalObject(PersonalObjectRecord(personId: personalOf, feedId: feedId, uid: shared.uid, body: body,
                                                                                     savedAt: tx.now))
                    return (false, shared.with(personal: saved).etag)
                case .sharedChange(let object, let body):
                    guard canEdit else { throw refusal }
                    if let object {
                        calendar = object
                        text = CalendarWriter(timeZones: .keep).write(object)
                        incoming = try Self.writtenObject(object)
                    }
                    ownBody = body
                }
            }
            guard canEdit else { throw refusal }
            if existing?.fromSource == true { throw CalendarObjectRefusal.fromSource(existing?.title ?? "") }
            let kept: DavObjectRecord
            switch incoming {
            case .countdown(let countdown):
                kept = try await keep(countdown, as: text, replacing: shared, feedId: feedId, slug: slug, tx)
            case .undated(let uid, let title):
                kept = try await keepUndated(uid: uid, title: title, as: text, replacing: shared, feedId: feedId, tx)
            }
            if name != CalendarObject.defaultName(uid: incoming.uid) {
                try await tx.saveDavName(DavNameRecord(feedId: feedId, uid: incoming.uid, name: name))
            }
            var saved = own
            if let personalOf, let ownBody, ownBody != own?.body ?? "" {
                saved = try await tx.savePersonalObject(PersonalObjectRecord(personId: personalOf, feedId: feedId, uid: incoming.uid, body: ownBody, savedAt: tx.now))
            }
            return (existing == nil, CalendarObject.etag(shared: kept.etag, personal: saved))
        }
    }

    /// What a person's write to a space's calendar is, against the object as everyone sees it.
    enum PersonalWrite: Equatable {
        /// Only their own part changed: kept as `body` ("" when it is everyone's again).
        case ownPartOnly(body: String)
        /// The rest changed: the object to keep (nil: as written, their part being everyone's), and their part.
        case sharedChange(VCalendar?, body: String)
    }

    static func split(_ written: VCalendar, against everyones: VCalendar) -> PersonalWrite {
        let (theirs, shared) = (PersonalPart(of: written), PersonalPart(of: everyones))
        let body = theirs == shared ? "" : theirs.text
        if PersonalPart.shared(of: written) == PersonalPart.shared(of: everyones) { return .ownPartOnly(body: body) }
        // The object keeps everyone's alarms, and the writer's stay theirs.
        return .sharedChange(theirs == shared ? nil : shared.merged(into: written), body: body)
    }

    /// The object as everyone sees it now, as `render` writes it (nil: not known, and the write is an editor's as on any calendar).
    private static func current(_ shared: CalendarObject, render: (@Sendable (CalendarObject, Feed) -> String?)?, _ feedRow: FeedRecord,
                                _ tx: any StoreTransaction) async throws -> VCalendar? {
        guard let render, let text = render(shared, try await tx.storedFeed(feedRow).feed) else { return nil }
        return try? ICalendarParser.parse(text, options: ParseOptions(mode: .lenient)).calendar
    }

    /// What a PUT's calendar holds: one countdown, or one task without a date.
    enum WrittenObject {
        case countdown(Countdown)
        case undated(uid: String, title: String)

        var uid: String {
            switch self {
            case .countdown(let countdown): countdown.uid
            case .undated(let uid, _): uid
            }
        }
    }

    static func writtenObject(_ calendar: VCalendar) throws -> WrittenObject {
        let (countdowns, skipped) = CountdownReader.countdowns(in: calendar, source: nil)
        if countdowns.count == 1, let incoming = countdowns.first { return .countdown(incoming) }
        guard countdowns.isEmpty else { throw CalendarObjectRefusal.notOneObject("an object holds one event or task (with its overrides), not \(countdowns.count)") }
        // RFC 5545 lets a task have neither DTSTART nor DUE (Reminders and tasks.org make them all the time):
        // kept as written, with no countdown until a date comes. An event needs its DTSTART.
        let masters = calendar.todos.map(\.component).filter { $0.first("RECURRENCE-ID") == nil }
        if calendar.events.isEmpty, masters.count == 1, let task = masters.first, task.first("DTSTART") == nil, task.first("DUE") == nil {
            guard let uid = task.first("UID")?.text, !uid.isEmpty else {
                throw CalendarObjectRefusal.notOneObject("line \(task.line): a task needs a UID (RFC 4791 §4.1)")
            }
            return .undated(uid: uid, title: SafeText.title(task.first("SUMMARY")?.text ?? ""))
        }
        throw CalendarObjectRefusal.notOneObject("the object holds no event or task tminus can keep\(skipped.first.map { ": \($0)" } ?? "")")
    }

    /// A PUT of a dated event or task: its countdown saved as the web app's
    /// edits are, and the text kept beside the row it was saved as.
    private func keep(_ incoming: Countdown, as text: String, replacing existing: CalendarObject?, feedId: Int64, slug: String,
                      _ tx: any StoreTransaction) async throws -> DavObjectRecord {
        if let row = existing?.row {
            var replacing = incoming
            replacing.id = try row.savedID()
            _ = try await update(replacing, asWritten: true, tx)
        } else {
            // A task that had no date gets its countdown now.
            if existing?.isUndated == true { try await tx.deleteDavObjects(feedId: feedId, uids: [incoming.uid]) }
            _ = try await insertNew(CountdownStamps.written(incoming, row: nil, now: tx.now), toFeed: slug, tx)
        }
        guard let saved = try await tx.countdownRows(.feed(feedId, uid: incoming.uid)).first else { throw StoreError.unsaved("countdown") }
        let basis = CalendarObject.etag(of: saved)
        let kept = DavObjectRecord(feedId: feedId, uid: incoming.uid, basis: basis, etag: CalendarObject.etag(ofKept: text, basis: basis), body: text,
                                   title: saved.title, savedAt: tx.now)
        // Bytes that changed while the countdown did not (a new DTSTAMP) are a change for a client that syncs
        // too, and a new version of the calendar for the listings kept by it.
        if let existing, existing.row.map(CalendarObject.etag(of:)) == basis, existing.etag != kept.etag {
            try await tx.log(.changed, [saved], by: principal.changeActor)
            try await tx.touch(feedId: feedId)
        }
        try await tx.saveDavObject(kept)
        try await tx.checkQuota(feedId: feedId)
        return kept
    }

    /// A PUT of a task without a date: the text is all that is kept of it; a
    /// countdown it had (it was dated before) is gone until a date comes back.
    private func keepUndated(uid: String, title: String, as text: String, replacing existing: CalendarObject?, feedId: Int64,
                             _ tx: any StoreTransaction) async throws -> DavObjectRecord {
        let kept = DavObjectRecord(feedId: feedId, uid: uid, basis: nil, etag: CalendarObject.etag(ofKept: text, basis: nil), body: text,
                                   title: title, savedAt: tx.now)
        guard kept.etag != existing?.etag else { return kept }
        if let row = existing?.row {
            try await tx.delete(CountdownRecord.self, ids: [try row.savedID()])
        }
        try await tx.saveDavObject(kept)
        try await tx.checkQuota(feedId: feedId)
        try await tx.appendChanges([ChangeRecord(feedId: feedId, countdownId: existing?.row?.id ?? 0, uid: uid, kind: existing == nil ? .added : .changed,
                                                 title: title, actor: principal.changeActor.label, at: tx.now, actorPerson: principal.changeActor.personId)])
        try await tx.touch(feedId: feedId)
        return kept
    }

    /// A calendar app's DELETE of the object `name`; false when there is none.
    public func deleteCalendarObject(feed slug: String, name: String, ifMatch: String?) async throws -> Bool {
        try await authorize(.editFeed(slug))
        return try await transaction { tx in
            let feedId = try await tx.requireFeed(slug, lock: true).savedID()
            guard let existing = try await Self.object(named: name, feedId: feedId, tx) else { return false }
            // The ETag its writer read: theirs, when they keep their own alarms on it.
            let own = if case .person(let person) = principal {
                try await tx.personalObjectRows(PersonalObjectQuery(personId: person.id, feedId: feedId, uids: [existing.uid])).first
            } else { PersonalObjectRecord?.none }
            if let ifMatch, ifMatch != "*", ifMatch != existing.etag, ifMatch != existing.with(personal: own).etag {
                throw CalendarObjectRefusal.preconditionFailed("the object changed since it was read (If-Match \(ifMatch.prefix(80)))")
            }
            if existing.fromSource { throw CalendarObjectRefusal.fromSource(existing.title) }
            if let row = existing.row {
                try await remove(row, tx)
            } else {
                try await tx.deleteDavObjects(feedId: feedId, uids: [existing.uid])
                try await tx.deletePersonalObjects(feedId: feedId, uids: [existing.uid], personId: nil)
                try await tx.appendChanges([ChangeRecord(feedId: feedId, countdownId: 0, uid: existing.uid, kind: .deleted, title: existing.title,
                                                         actor: principal.changeActor.label, at: tx.now, actorPerson: principal.changeActor.personId)])
                try await tx.touch(feedId: feedId)
            }
            return true
        }
    }

    /// The object a name stands for: the countdown or task a client named so, or the one whose UID it was made from.
    static func object(named name: String, feedId: Int64, _ reader: any StoreReader) async throws -> CalendarObject? {
        if let named = try await reader.davNameRows(feedId: feedId, .name(name)).first {
            return try await object(uid: named.uid, feedId: feedId, reader).map { found in
                var object = found
                object.name = name
                return object
            }
        }
        guard name.hasSuffix(".ics") else { return nil }
        let uid = String(name.dropLast(4))
        return try await object(uid: uid, feedId: feedId, reader)
    }

    /// The object of a UID, under the name it answers at, with its kept text.
    static func object(uid: String, feedId: Int64, _ reader: any StoreReader) async throws -> CalendarObject? {
        let kept = try await reader.davObjectRows(DavObjectQuery(feedId: feedId, uids: [uid], bodies: true)).first
        let custom = try await reader.davNameRows(feedId: feedId, .uids([uid])).first?.name
        if let row = try await reader.countdownRows(.feed(feedId, uid: uid)).first { return CalendarObject(row: row, name: custom, kept: kept) }
        return kept.flatMap { $0.isUndated ? CalendarObject(undated: $0, name: custom) : nil }
    }
}

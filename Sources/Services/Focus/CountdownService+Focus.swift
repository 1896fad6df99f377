import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// Focus sessions (issue #42): a person's running session is one document
/// in the store (`focus:<person id>`), and every stretch of it is an event of
/// their focus feed: live while it runs (a busy block in every calendar that
/// subscribes), finished with what was done when it ends. Each use case is
/// one transaction: the session rolled forward to now (phases that ended
/// are finished first), the change, the events, the document.
extension CountdownService {
    // MARK: use cases

    /// Starts a session; refused while another runs (which one is said).
    @discardableResult
    /// `zone` is the focus feed's, if this start makes it (days are counted in
    /// it); without one it takes the zone most of the person's feeds use, else UTC.
    public func startFocus(tag: String, mode: FocusMode = .down, minutes: Int? = nil, pomodoro: PomodoroPlan? = nil,
                           keepBreaks: Bool = false, zone: String? = nil) async throws -> FocusStatus {
        let me = try focusPerson(writing: true)
        let tag = try FocusTag.checked(tag)
        try await authorize(.createFeed(space: nil))
        return try await withFocus(me, zone: zone) { session, slug, tx in
            if let running = session { throw FocusProblem.alreadyRunning(FocusStatus(running, feed: slug, now: tx.now)) }
            let started: FocusSession
            do {
                started = try FocusSession.start(tag: tag, mode: mode, minutes: minutes, pomodoro: pomodoro, keepBreaks: keepBreaks, now: tx.now,
                                                 uid: "focus-\(UUID().uuidString.lowercased())@tminus")
            } catch let invalid as FocusInvalid { throw FocusProblem.invalid(invalid) }
            try await self.openPhase(started, slug, tx)
            session = started
            return FocusStatus(started, feed: slug, now: tx.now)
        }
    }

    /// Stops the running session; what was studied is kept. Returns that block (nil for a break, or under a minute).
    @discardableResult
    public func stopFocus() async throws -> FocusBlock? {
        let me = try focusPerson(writing: true)
        return try await withFocus(me) { session, slug, tx in
            guard let running = session else { throw FocusProblem.notRunning }
            let block = running.stopped(at: tx.now)
            if let block { try await self.keep(block, slug, tx) } else { try await self.dropLive(running, slug, tx) }
            session = nil
            return block
        }
    }

    @discardableResult
    public func pauseFocus() async throws -> FocusStatus { try await changeFocus { $0.pausing(at: $1) } }

    @discardableResult
    public func resumeFocus() async throws -> FocusStatus { try await changeFocus { $0.resuming(at: $1) } }

    /// The current phase, `minutes` longer.
    @discardableResult
    public func extendFocus(minutes: Int) async throws -> FocusStatus {
        try await changeFocus { session, _ in
            do { return try session.extended(by: minutes) } catch let invalid as FocusInvalid { throw FocusProblem.invalid(invalid) }
        }
    }

    /// The running session, if any, as it stands now (phases that ended meanwhile are kept on the way).
    public func focus() async throws -> FocusStatus? {
        let me = try focusPerson(writing: false)
        guard me.readOnly else { return try await withFocus(me) { session, slug, tx in session.map { FocusStatus($0, feed: slug, now: tx.now) } } }
        // A read-only token reads: the session is rolled in memory only, and nothing is made or kept.
        let now = clock()
        return try await store.read { reader in
            let slug = try await Self.focusFeedSlug(of: me, reader).slug
            let stored = try await reader.value(for: Self.focusKey(me)).flatMap { try? JSONDecoder().decode(FocusSession.self, from: $0.bytes) }
            return stored?.rolled(to: now).session.map { FocusStatus($0, feed: slug, now: now) }
        }
    }

    /// The server's focus round: every running session is rolled to now, so
    /// that a study or break that ended is kept (and its feed changes, which
    /// the feed's notices tell) whether or not anyone looks. Returns how many
    /// sessions it looked at.
    @discardableResult
    public func focusRound() async throws -> Int {
        try await authorize(.administer)
        let running = try await store.read { reader in try await Self.runningFocus(reader) }
        for id in running {
            guard let person = try await store.read({ try await $0.personRows(.id(id)).first }) else {
                try await transaction { tx in try await Self.markRunning(id, false, tx) }
                continue
            }
            _ = try await acting(as: .person(PersonAccess(id: id, login: person.login, isAdmin: person.isAdmin))).focus()
        }
        return running.count
    }

    static func runningFocus(_ reader: any StoreReader) async throws -> [Int64] {
        try await reader.value(for: .setting(.focusRunning)).flatMap { try? JSONDecoder().decode([Int64].self, from: $0.bytes) } ?? []
    }

    static func markRunning(_ id: Int64, _ running: Bool, _ tx: any StoreTransaction) async throws {
        var ids = Set(try await runningFocus(tx))
        if running { ids.insert(id) } else { ids.remove(id) }
        try await tx.setValue(PersistedValue(bytes: try JSONEncoder().encode(ids.sorted()), expiresAt: nil), for: .setting(.focusRunning))
    }

    /// Where a person's running session is kept.
    static func focusKey(_ me: PersonAccess) -> StoreKey { .entry(keyHash: Secret.hash("focus:\(me.id)")) }

    /// What the person's focused time adds up to over the `period` containing
    /// `day` (default: today in their focus feed's zone).
    public func focusStatistics(period: CategoryStatistics.Period, containing day: CivilDate? = nil) async throws -> FocusStatistics {
        let me = try focusPerson(writing: false)
        _ = try await focus()   // phases that ended are kept first (for a read-only token, only looked at)
        let now = clock()
        return try await store.read { reader in
            guard let row = try await Self.focusFeedSlug(of: me, reader).row else {
                return FocusStatistics(entries: [], span: CategoryStatistics.Span(period, containing: day ?? Zone.utc.local(of: now).date),
                                       zone: .utc, today: Zone.utc.local(of: now).date)
            }
            let feed = try await reader.storedFeed(row).feed
            let zone = feed.zone
            let today = zone.local(of: now).date
            var entries: [FocusEntry] = []
            for countdownRow in try await reader.countdownRows(.feed(try row.savedID(), uid: nil)) {
                if let entry = FocusEntry(try await reader.countdown(countdownRow), zone: zone) { entries.append(entry) }
            }
            let tasks = try await Self.tasksDoneOnTime(of: me, reader)
            return FocusStatistics(entries: entries, span: CategoryStatistics.Span(period, containing: day ?? today), zone: zone, today: today,
                                   tasksOnTime: tasks, colors: feed.categoryColors)
        }
    }

    // MARK: steps

    private func changeFocus(_ change: @escaping @Sendable (FocusSession, Date) throws -> FocusSession) async throws -> FocusStatus {
        let me = try focusPerson(writing: true)
        return try await withFocus(me) { session, slug, tx in
            guard let running = session else { throw FocusProblem.notRunning }
            let changed = try change(running, tx.now)
            try await self.syncLive(changed, slug, tx)
            session = changed
            return FocusStatus(changed, feed: slug, now: tx.now)
        }
    }

    func focusPerson(writing: Bool) throws -> PersonAccess {
        guard case .person(let me) = principal else { throw FocusProblem.noPerson }
        if writing, me.readOnly { try Authorization.check(principal, .editFeed("focus")) }
        return me
    }

    /// One focus transaction: the feed made when missing, the session rolled
    /// to now, `body`, then the session kept (or removed).
    private func withFocus<T: Sendable>(_ me: PersonAccess, zone: String? = nil,
                                        _ body: @escaping @Sendable (inout FocusSession?, String, any StoreTransaction) async throws -> T) async throws -> T {
        try await transaction { tx in
            let slug = try await self.focusFeed(of: me, zone: zone, tx)
            // The feed's row, locked: two devices starting at once take turns (PostgreSQL; SQLite writes one at a time anyway).
            _ = try await tx.feedRow(slug: slug, lock: true)
            let key = Self.focusKey(me)
            let stored = try await tx.value(for: key).flatMap { try? JSONDecoder().decode(FocusSession.self, from: $0.bytes) }
            var session = stored
            if let stored {
                let (next, finished) = stored.rolled(to: tx.now)
                for block in finished { try await self.keep(block, slug, tx) }
                if let next, next.uid != stored.uid { try await self.openPhase(next, slug, tx) }
                session = next
            }
            let result = try await body(&session, slug, tx)
            if session != stored {
                try await tx.setValue(try session.map { PersistedValue(bytes: try JSONEncoder().encode($0), expiresAt: nil) }, for: key)
            }
            if (session == nil) != (stored == nil) { try await Self.markRunning(me.id, session != nil, tx) }
            return result
        }
    }

    /// The person's focus feed, made (private) the first time: in `zone`, else
    /// the zone most of their own feeds use, else UTC. Its id is kept for the
    /// person (`focusFeedKey`), so it is found by what it is, not by its name.
    func focusFeed(of me: PersonAccess, zone: String? = nil, _ tx: any StoreTransaction) async throws -> String {
        let found = try await Self.focusFeedSlug(of: me, tx)
        if let row = found.row {
            if try await tx.value(for: Self.focusFeedKey(me)) == nil { try await Self.remember(row, for: me, tx) }
            return found.slug
        }
        let theirs = try await tx.feedRows(nil, lock: false).filter { $0.personId == me.id }.map { $0.feed(categoryColors: [:]).timeZone }
        let common = Dictionary(grouping: theirs, by: { $0 }).max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
        let chosen = [zone, common].compactMap { $0 }.first { Zone.named($0) != nil } ?? "UTC"
        var row = FeedRecord(Feed(slug: found.slug, name: "Focus", description: "Focused time, kept by tminus", timeZone: chosen, isPublic: false), now: tx.now)
        row.personId = me.id
        row = try await tx.save(row)
        try await Self.remember(row, for: me, tx)
        return found.slug
    }

    /// Where the id of a person's focus feed is kept.
    static func focusFeedKey(_ me: PersonAccess) -> StoreKey { .entry(keyHash: Secret.hash("focus-feed:\(me.id)")) }

    private static func remember(_ row: FeedRecord, for me: PersonAccess, _ tx: any StoreTransaction) async throws {
        try await tx.setValue(PersistedValue(bytes: Data(String(try row.savedID()).utf8), expiresAt: nil), for: focusFeedKey(me))
    }

    /// The person's focus feed: its slug and row when they have one, else the
    /// free address a new one gets. Only a feed the person owns is ever theirs:
    /// the one whose id is kept for them, else (kept before ids were) `focus` or
    /// `focus-<login>` when they own it. A new one is `focus` for the first
    /// person, `focus-<login>` for the others, else `focus-<id>`, else that with
    /// a number: a name someone else took is passed over, never written to
    /// (issue #59: feeds named `focus-…` received another person's sessions).
    static func focusFeedSlug(of me: PersonAccess, _ reader: any StoreReader) async throws -> (slug: String, row: FeedRecord?) {
        if let kept = try await reader.value(for: focusFeedKey(me)), let id = Int64(String(decoding: kept.bytes, as: UTF8.self)),
           let row = try await reader.feedRows(.id(id), lock: false).first, row.personId == me.id {
            return (row.slug, row)
        }
        let login = String(me.login.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        let own = "focus-\(login)"
        for candidate in ["focus", own] {
            if let row = try await reader.feedRow(slug: candidate), row.personId == me.id { return (candidate, row) }
        }
        let first = try await reader.personRows(nil).compactMap(\.id).min()
        var candidates = first == me.id ? ["focus"] : []
        if Feed.isValidSlug(own) { candidates.append(own) }
        candidates += ["focus-\(me.id)"] + (2...50).map { "focus-\(me.id)-\($0)" }
        for candidate in candidates where try await reader.feedRow(slug: candidate) == nil { return (candidate, nil) }
        return ("focus-\(me.id)-\(UUID().uuidString.prefix(8).lowercased())", nil)
    }

    /// Seconds the person focused from `since` on, for a space's board.
    static func focusedSeconds(of person: PersonAccess, since: Date, _ reader: any StoreReader) async throws -> Int {
        guard let row = try await focusFeedSlug(of: person, reader).row else { return 0 }
        let zone = try await reader.storedFeed(row).feed.zone
        var seconds = 0
        for countdownRow in try await reader.countdownRows(.feed(try row.savedID(), uid: nil)) {
            if let entry = FocusEntry(try await reader.countdown(countdownRow), zone: zone), entry.start >= since { seconds += entry.seconds }
        }
        return seconds
    }

    /// Tasks of the person's own feeds completed by their date: experience points.
    static func tasksDoneOnTime(of me: PersonAccess, _ reader: any StoreReader) async throws -> Int {
        var count = 0
        for row in try await reader.feedRows(nil, lock: false) where row.personId == me.id {
            for countdownRow in try await reader.countdownRows(.feed(try row.savedID(), uid: nil)) {
                let countdown = try await reader.countdown(countdownRow)
                guard countdown.kind == .task, countdown.status == .completed, let done = countdown.completedAt else { continue }
                if done.local.date <= countdown.target.local.date { count += 1 }
            }
        }
        return count
    }

    /// The live event of a phase that starts: a study always, a break when breaks are kept.
    private func openPhase(_ session: FocusSession, _ slug: String, _ tx: any StoreTransaction) async throws {
        guard session.phase == .study || session.keepBreaks else { return }
        _ = try await add(FocusEvents.live(session, at: tx.now), toFeed: slug, tx)
    }

    /// A finished block: its live event gets its end, title and focused time; made when there was none.
    private func keep(_ block: FocusBlock, _ slug: String, _ tx: any StoreTransaction) async throws {
        let live = try await liveRow(block.uid, slug, tx)
        guard block.phase == .study || live != nil else { return }
        var finished = FocusEvents.finished(block)
        if let row = live {
            finished.id = row.id
            finished.sequence = row.sequence
            _ = try await update(finished, tx)
        } else {
            _ = try await add(finished, toFeed: slug, tx)
        }
    }

    /// A session stopped with nothing to keep (a break, or under a minute of study): its live event goes.
    private func dropLive(_ session: FocusSession, _ slug: String, _ tx: any StoreTransaction) async throws {
        if let row = try await liveRow(session.uid, slug, tx) { try await remove(row, tx) }
    }

    /// The live event follows a pause, a resume or an extension: it ends when the phase now ends.
    private func syncLive(_ session: FocusSession, _ slug: String, _ tx: any StoreTransaction) async throws {
        guard let row = try await liveRow(session.uid, slug, tx) else { return }
        var live = try await tx.countdown(row)
        live.end = FocusEvents.instant(session.phaseEnd(at: tx.now))
        _ = try await update(live, tx)
    }

    private func liveRow(_ uid: String, _ slug: String, _ tx: any StoreTransaction) async throws -> CountdownRecord? {
        try await tx.countdownRows(.feed(try await tx.requireFeed(slug).savedID(), uid: uid)).first
    }
}

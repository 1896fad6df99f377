import Countdowns
import Foundation
import NIOCore
import ICalendar
import Testing
@testable import CountdownStore
import Services

/// What every store promises beyond imports, run against each store
/// (`StoreBackend.available`): SQLite always, PostgreSQL under `make test-postgres`.
struct StoreContractTests {
    static func date(_ year: Int, _ month: Int, _ day: Int) -> DateTimeValue { .date(CivilDate(year: year, month: month, day: day)) }

    @Test(arguments: StoreBackend.available) func everyChangeRaisesTheRevisionAndNothingElseDoes(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "school", name: "School"))
        let start = try #require(try await store.feedVersions().first { $0.slug == "school" }).revision
        let added = try await store.service.add(Countdown(uid: "exam", title: "Exam", target: Self.date(2027, 6, 1)), toFeed: "school")
        _ = try await store.service.update(added)   // nothing changed
        let afterAdd = try #require(try await store.feed(slug: "school")).revision
        #expect(afterAdd == start + 1, "an add raises the revision once; an update that changes nothing does not")
        var edited = added
        edited.title = "Final exam"
        _ = try await store.service.update(edited)
        try await store.service.delete(id: added.id!)
        #expect(try await store.feed(slug: "school")?.revision == afterAdd + 2)
        await #expect(throws: StoreError.countdownNotFound(added.id!)) { try await store.service.delete(id: added.id!) }
        #expect(try await store.feed(slug: "school")?.revision == afterAdd + 2, "a refused delete changes nothing")
    }

    @Test(arguments: StoreBackend.available) func moveAndRestoreKeepTheUIDAndRaiseTheSequence(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "home"))
        try await store.service.createFeed(Feed(slug: "work"))
        var countdown = Countdown(uid: "trip", title: "Trip", target: Self.date(2027, 8, 1))
        countdown.categories = ["Travel"]
        let added = try await store.service.add(countdown, toFeed: "home")
        let moved = try await store.service.move(id: added.id!, toFeed: "work")
        #expect(moved.uid == "trip" && moved.sequence == 1 && moved.categories == ["Travel"])
        #expect(try await store.countdowns(inFeed: "home").isEmpty)
        #expect(try await store.countdown(id: added.id!).feed == "work")
        try await store.service.delete(id: added.id!)
        let restored = try await store.service.restore(moved, toFeed: "work")
        #expect(restored.uid == "trip" && restored.sequence == 2)
        await #expect(throws: StoreError.duplicateUID("trip", feed: "work")) { try await store.service.restore(moved, toFeed: "work") }
    }

    @Test(arguments: StoreBackend.available) func aKeptExportServesOnlyItsRevisionAndGoesWithItsFeed(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "school"))
        let revision = try #require(try await store.feed(slug: "school")).revision
        #expect(try await store.keptExport(slug: "school", view: .none) == nil)
        let full = KeptExport(revision: revision, variant: "v1", bytes: KeptExport.Bytes(body: ByteBuffer(string: "BEGIN:VCALENDAR"), etag: "\"a\""))
        try await store.keptExports.keepExport(full, slug: "school", view: .none)
        // A public view that hides nothing is written as "the same": it reads the full row's bytes.
        try await store.keptExports.keepExport(KeptExport(revision: revision, variant: "v1", bytes: nil), slug: "school", view: .classified)
        #expect(try await store.keptExport(slug: "school", view: .none) == full)
        #expect(try await store.keptExport(slug: "school", view: .classified) == full)
        #expect(try await store.keptExport(slug: "school", view: .busy) == nil)
        // One too large to hold: a summary, then its bytes a chunk at a time (the view's through the full row).
        let summary = try #require(try await store.keptExports.keptExport(slug: "school", view: .classified, bodyUpTo: 4)?.bytes)
        #expect(summary.body.readableBytes == 0 && summary.length == 15 && summary.etag == "\"a\"")
        #expect(try await store.keptExports.keptExport(slug: "school", view: .classified, bodyUpTo: 15)?.bytes?.body.readableBytes == 15)
        #expect(try await store.keptExports.keptExportChunk(slug: "school", view: .classified, revision: revision, variant: "v1", offset: 2, length: 4)
                == ByteBuffer(string: "GIN:"))
        #expect(try await store.keptExports.keptExportChunk(slug: "school", view: .none, revision: revision, variant: "v1", offset: 12, length: 10) == ByteBuffer(string: "DAR"))
        #expect(try await store.keptExports.keptExportChunk(slug: "school", view: .none, revision: revision, variant: "v2", offset: 0, length: 10) == nil,
                "another variant: what was being sent is gone")

        // Another variant of the full row: the view's "same as full" no longer resolves.
        let other = KeptExport(revision: revision, variant: "v2", bytes: KeptExport.Bytes(body: ByteBuffer(string: "other"), etag: "\"b\"", gzipped: ByteBuffer(bytes: [31, 139]),
                                                                                            gzippedEtag: "\"c\""))
        try await store.keptExports.keepExport(other, slug: "school", view: .none)
        #expect(try await store.keptExport(slug: "school", view: .none) == other, "a variant replaces the row, gzipped copy included")
        #expect(try await store.keptExport(slug: "school", view: .classified) == nil)

        // A change: an export of the old revision is refused, the new one kept.
        _ = try await store.service.add(Countdown(uid: "exam", title: "Exam", target: Self.date(2027, 6, 1)), toFeed: "school")
        try await store.keptExports.keepExport(full, slug: "school", view: .none)
        #expect(try await store.keptExport(slug: "school", view: .none) == other, "a slow writer of an older revision changes nothing")
        let next = KeptExport(revision: revision + 1, variant: "v1", bytes: KeptExport.Bytes(body: ByteBuffer(string: "next"), etag: "\"d\""))
        try await store.keptExports.keepExport(next, slug: "school", view: .none)
        #expect(try await store.keptExport(slug: "school", view: .none) == next)

        // A body in parts (a large export written in batches) reads back joined, and is refused for an older revision as one body is.
        let parts: [[UInt8]] = [Array("BEGIN:VCALENDAR\r\n".utf8), [], Array(repeating: UInt8(ascii: "x"), count: 70_000), Array("END:VCALENDAR\r\n".utf8)]
        try await store.keptExports.keepExport(parts: parts, etag: "\"e\"", revision: revision + 1, variant: "v3", slug: "school", view: .busy)
        let joined = try #require(try await store.keptExport(slug: "school", view: .busy)?.bytes)
        #expect(joined.body == ByteBuffer(bytes: parts.joined()) && joined.etag == "\"e\"" && joined.gzipped == nil)
        #expect(try await store.keptExports.keptExportChunk(slug: "school", view: .busy, revision: revision + 1, variant: "v3", offset: 70_015, length: 10)
                == ByteBuffer(string: "xxEND:VCAL"))
        try await store.keptExports.keepExport(parts: [Array("old".utf8)], etag: "\"f\"", revision: revision, variant: "v4", slug: "school", view: .busy)
        #expect(try await store.keptExport(slug: "school", view: .busy)?.bytes?.etag == "\"e\"", "an older revision's parts change nothing")
        try await store.keptExports.keepExport(parts: [Array("new".utf8), Array("er".utf8)], etag: "\"h\"", revision: revision + 1, variant: "v5", slug: "school",
                                   view: .busy)
        #expect(try await store.keptExport(slug: "school", view: .busy)?.bytes?.body == ByteBuffer(string: "newer"), "another variant replaces it")

        // Not data: a copy of the store leaves it out, and it goes with its feed.
        if backend != .memory { #expect(try await store.snapshot().tables["feedExport"] == nil) }
        try await store.service.deleteFeed(slug: "school")
        try await store.service.createFeed(Feed(slug: "school"))
        #expect(try await store.keptExport(slug: "school", view: .none) == nil, "a new feed of the same name starts without")
    }

    @Test(arguments: StoreBackend.available) func tokensSettingsAndSessions(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "bills", isPublic: false))
        let (secret, token) = try await store.service.createFeedToken(feed: "bills", label: "phone", visibility: .full)
        let (busySecret, busy) = try await store.service.createFeedToken(feed: "bills", label: "colleagues", visibility: .busy)
        #expect(try await store.activeTokens() == [ActiveToken(id: token.id, hash: Secret.hash(secret), slug: "bills", visibility: .full),
                                                   ActiveToken(id: busy.id, hash: Secret.hash(busySecret), slug: "bills", visibility: .busy)])
        #expect(try await store.feedTokens(feed: "bills").map(\.visibility) == [.full, .busy], "the visibility is kept")
        try await store.service.revokeFeedToken(feed: "bills", id: busy.id)
        temp.clock.advance(60)
        try await store.service.recordTokenUse([token.id: temp.clock.now])
        #expect(try await store.feedTokens(feed: "bills").first?.lastUsedAt == temp.clock.now)
        try await store.service.revokeFeedToken(feed: "bills", id: token.id)
        #expect(try await store.activeTokens().isEmpty)
        await #expect(throws: StoreError.self) { try await store.service.revokeFeedToken(feed: "bills", id: token.id + 100) }

        try await store.service.setSetting(.csrfKey, to: "one")
        try await store.service.setSetting(.csrfKey, to: "two")
        #expect(try await store.setting(.csrfKey) == "two")
        try await store.service.setSetting(.csrfKey, to: nil)
        #expect(try await store.setting(.csrfKey) == nil)

        #expect(try await store.service.setPersistedValue(Data("a".utf8), for: "session:1", expiresIn: 60, onlyIfAbsent: true))
        #expect(try await !store.service.setPersistedValue(Data("b".utf8), for: "session:1", expiresIn: 60, onlyIfAbsent: true), "a live entry stays")
        #expect(try await store.persistedValue(for: "session:1", now: temp.clock.now)?.bytes == Data("a".utf8))
        #expect(try await store.read { try await $0.value(for: .entry(keyHash: Secret.hash("session:1"))) } != nil, "keys are stored as hashes")
        temp.clock.advance(61)
        #expect(try await store.persistedValue(for: "session:1", now: temp.clock.now) == nil, "expired")
        #expect(try await store.service.removeExpiredPersistedValues() == 1)
    }

    @Test(arguments: StoreBackend.available) func sourcesKeepTheirValidatorsAndSubscriptions(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "team"))
        let url = "https://example.org/team.ics"
        try await store.service.recordFetch(feed: "team", location: url, etag: "\"v1\"", lastModified: "Mon, 23 Nov 2026 10:00:00 GMT", error: nil)
        try await store.service.recordFetch(feed: "team", location: url, etag: nil, lastModified: nil, error: "timed out")
        let source = try #require(try await store.source(feed: "team", location: url))
        #expect(source.etag == "\"v1\"" && source.lastError == "timed out" && source.lastSuccessAt == temp.clock.now)
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nEND:VCALENDAR\r\n"
        _ = try await store.service.importAndSubscribe(Array(calendar.utf8), intoFeed: "team", options: ImportOptions(source: url, sync: true),
                                                       location: url)
        #expect(try await store.subscriptions() == [SourceSubscription(feed: "team", location: url)])
        // Rules: kept with the subscription, and the validators go with the old ones (a full fetch next).
        try await store.service.recordFetch(feed: "team", location: url, etag: "\"v2\"", lastModified: nil, error: nil)
        #expect(try await store.service.setSubscriptionRules(feed: "team", location: url, rules: "change:\n  prefix: 'Team: '\n"))
        #expect(try await store.subscriptions().first?.rules == "change:\n  prefix: 'Team: '\n")
        let forgotten = try #require(try await store.source(feed: "team", location: url))
        #expect(forgotten.etag == nil && forgotten.lastModifiedHeader == nil)
        #expect(try await !store.service.setSubscriptionRules(feed: "team", location: "https://example.org/other.ics", rules: "x"), "no such source")
        try await store.service.unsubscribe(feed: "team", location: url)
        #expect(try await store.subscriptions().isEmpty)
        #expect(try await !store.service.setSubscriptionRules(feed: "team", location: url, rules: "x"), "a source no longer fetched has no rules")
        _ = try await store.service.importAndSubscribe(Array(calendar.utf8), intoFeed: "team", options: ImportOptions(source: url, sync: true),
                                                       location: url)
        #expect(try await store.subscriptions().first?.rules == nil, "stopping dropped the rules")
    }

    /// `tminus copy`: a snapshot restored into an empty store of either kind
    /// gives the same rows, the same countdowns and the same revisions. The
    /// in-memory store is never a copy's end, and says so.
    @Test(arguments: StoreBackend.available) func aSnapshotRestoresIntoAnEmptyStoreOnly(_ backend: StoreBackend) async throws {
        let from = try await TemporaryStore.make(.sqlite)
        _ = try await from.store.service.importCalendar(try TemporaryStore.fixture("family.ics"), intoFeed: "family")
        _ = try await from.store.service.createFeedToken(feed: "family", label: "copy", visibility: .titles)
        let snapshot = try await from.store.snapshot()
        let to = try await TemporaryStore.make(backend)
        if backend == .memory {
            await #expect(throws: StoreError.invalid("an in-memory store cannot be copied into: copy into a SQLite file or PostgreSQL")) {
                try await to.store.restore(snapshot)
            }
            return
        }
        try await to.store.restore(snapshot)
        #expect(try await to.store.feedVersions() == from.store.feedVersions())
        let copied = try await to.store.countdowns(inFeed: "family"), original = try await from.store.countdowns(inFeed: "family")
        #expect(copied.map { CountdownRecord.content(of: $0) } == original.map { CountdownRecord.content(of: $0) })
        #expect(copied.map(\.id) == original.map(\.id) && copied.map(\.lastModified) == original.map(\.lastModified))
        #expect(try await to.store.activeTokens() == from.store.activeTokens())
        await #expect(throws: StoreError.self) { try await to.store.restore(snapshot) }
        let next = try await to.store.service.add(Countdown(uid: "new", title: "New", target: Self.date(2027, 1, 1)), toFeed: "family")
        #expect(next.id! > original.compactMap(\.id).max()!, "ids continue after the copied ones")
    }
}

extension StoreContractTests {
    /// Two replicas that find a source due at the same moment: one fetches.
    @Test(arguments: StoreBackend.available) func oneHolderOfASourceLeaseAtATime(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "team"))
        let url = "https://example.org/team.ics"
        let firstTwo = try await [store.service.leaseRefresh(feed: "team", location: url, for: 90), store.service.leaseRefresh(feed: "team", location: url, for: 90)]
        #expect(firstTwo == [true, false])
        try await store.service.recordFetch(feed: "team", location: url, etag: nil, lastModified: nil, error: nil)
        #expect(try await store.service.leaseRefresh(feed: "team", location: url, for: 90), "a recorded fetch ends the lease")
        temp.clock.advance(91)
        #expect(try await store.service.leaseRefresh(feed: "team", location: url, for: 90), "a lease its holder never gave back runs out")
    }
}

extension StoreContractTests {
    /// Issue #62: objects kept as calendar apps wrote them, and tasks without a
    /// date, read by UID with or without their text, counted by the quota,
    /// carried by a copy and gone with their feed.
    @Test(arguments: StoreBackend.available) func keptObjectsAreReadCountedCopiedAndGoWithTheirFeed(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.service.createFeed(Feed(slug: "chores"))
        let task = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:milk\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:fair\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20270601\r\n"
            + "SUMMARY:Fair\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let first = try await store.service.putCalendarObject(Array(task.utf8), feed: "chores", name: "milk.ics", ifMatch: nil, ifNoneMatch: true)
        _ = try await store.service.putCalendarObject(Array(event.utf8), feed: "chores", name: "fair.ics", ifMatch: nil, ifNoneMatch: true)
        #expect(first.created)
        let listing = try await store.service.calendarListing(feed: "chores")
        #expect(Set(listing.objects.map(\.uid)) == ["milk", "fair"] && listing.objects.first { $0.uid == "milk" }?.isUndated == true)
        #expect(listing.objects.first { $0.uid == "milk" }?.written == task, "a task without a date is read with its text, to be searched")
        #expect(listing.objects.first { $0.uid == "fair" }?.written == nil, "without bodies asked, a dated object's text is not read")
        let withBodies = try await store.service.calendarListing(feed: "chores", uids: ["fair"], bodies: true)
        #expect(withBodies.objects.map(\.written) == [event])
        #expect(try await store.service.keptTexts(feed: "chores", uids: ["fair", "nothing"]).mapValues(\.body) == ["fair": event])
        #expect(try await store.service.undatedTasks(feed: "chores").map(\.title) == ["Milk"])
        let countdowns = try await store.countdowns(inFeed: "chores")
        #expect(countdowns.map(\.uid) == ["fair"])
        let usage = try await store.read { reader in try await reader.usage(of: .person(0)) }
        #expect(usage == StorageUsage(), "an operator's feed counts toward no one")

        if backend != .memory {
            let snapshot = try await store.snapshot()
            #expect(snapshot.tables["davObject"]?.count == 2)
            let copy = try await TemporaryStore.make(.sqlite)
            try await copy.store.restore(snapshot)
            #expect(try await copy.store.service.calendarObject(feed: "chores", name: "milk.ics")?.written == task)
        }
        try await store.service.deleteFeed(slug: "chores")
        try await store.service.createFeed(Feed(slug: "chores"))
        #expect(try await store.service.calendarListing(feed: "chores").objects.isEmpty, "kept objects went with their feed")
    }
}

extension StoreContractTests {
    /// Issue #62: a person's own parts of a shared calendar's objects, a new id
    /// at every save (what a person's sync token counts), read by person, UID
    /// and id, forgotten for one person or all, carried by a copy, and gone
    /// with their feed or their person.
    @Test(arguments: StoreBackend.available) func personalPartsAreKeptPerPersonWithGrowingIds(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        let (ben, carl) = (try await store.service.addPerson(login: "ben", password: "a long enough password", cost: 4),
                           try await store.service.addPerson(login: "carl", password: "a long enough password", cost: 4))
        try await store.service.createFeed(Feed(slug: "family"))
        let feedId = try #require(try await store.feed(slug: "family")?.id)
        let (benId, carlId) = (try ben.savedID(), try carl.savedID())
        func save(_ person: Int64, _ uid: String, _ body: String) async throws -> PersonalObjectRecord {
            try await store.transaction { tx in try await tx.savePersonalObject(PersonalObjectRecord(personId: person, feedId: feedId, uid: uid, body: body, savedAt: tx.now)) }
        }
        func rows(_ person: Int64, uids: [String]? = nil, after: Int64? = nil) async throws -> [PersonalObjectRecord] {
            try await store.read { try await $0.personalObjectRows(PersonalObjectQuery(personId: person, feedId: feedId, uids: uids, after: after)) }
        }
        let first = try await save(benId, "dinner", "a")
        _ = try await save(carlId, "dinner", "c")
        let again = try await save(benId, "dinner", "b")
        let other = try await save(benId, "lunch", "l")
        #expect((again.id ?? 0) > (first.id ?? 0), "a new id at every save")
        #expect(try await rows(benId).map(\.body) == ["b", "l"], "one per person and UID, by id")
        #expect(try await rows(carlId).map(\.body) == ["c"])
        #expect(try await rows(benId, uids: ["lunch"]).map(\.id) == [other.id])
        #expect(try await rows(benId, after: again.id).map(\.uid) == ["lunch"])
        if backend != .memory {
            let snapshot = try await store.snapshot()
            #expect(snapshot.tables["personalObject"]?.count == 3)
        }
        try await store.transaction { tx in try await tx.deletePersonalObjects(feedId: feedId, uids: ["dinner"], personId: carlId) }
        #expect(try await rows(carlId).isEmpty, "one person's")
        #expect(try await rows(benId).count == 2)
        try await store.transaction { tx in try await tx.deletePersonalObjects(feedId: feedId, uids: ["dinner"], personId: nil) }
        #expect(try await rows(benId).map(\.uid) == ["lunch"], "everyone's")
        try await store.service.deleteFeed(slug: "family")
        try await store.service.createFeed(Feed(slug: "family"))
        let newFeed = try #require(try await store.feed(slug: "family")?.id)
        #expect(newFeed != feedId)
        #expect(try await store.read { try await $0.personalObjectRows(PersonalObjectQuery(personId: benId, feedId: feedId)) }.isEmpty, "gone with their feed")
    }
}

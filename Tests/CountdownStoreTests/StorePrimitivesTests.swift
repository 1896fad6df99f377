import Countdowns
import Foundation
import ICalendar
import Testing
@testable import CountdownStore

/// Every primitive of `StoreReader` and `StoreTransaction`, called directly on
/// each store (`StoreBackend.available`: SQLite and memory always, PostgreSQL
/// under `make test-postgres`): rows go in and come back as written, ordered
/// the same everywhere, and a refused write changes nothing.
struct StorePrimitivesTests {
    static func feed(_ slug: String, now: Date) -> FeedRecord { FeedRecord(Feed(slug: slug), now: now) }

    static func countdown(_ uid: String, title: String, on day: String, feedId: Int64, now: Date) -> CountdownRecord {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let date = CivilDate(year: parts[0], month: parts[1], day: parts[2])
        return CountdownRecord(Countdown(uid: uid, title: title, target: .date(date)), feedId: feedId, sourceId: nil, now: now)
    }

    @Test(arguments: StoreBackend.available) func feedRowsAreSavedReadByKeyAndDeletedWithWhatHangsOnThem(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend).store
        let (zoo, bees) = try await store.transaction { tx in
            (try await tx.save(Self.feed("zoo", now: tx.now)), try await tx.save(Self.feed("bees", now: tx.now)))
        }
        let zooId = try zoo.savedID()
        #expect(try await store.read { try await $0.feedRows(nil, lock: false).map(\.slug) } == ["bees", "zoo"], "every feed, by slug")
        #expect(try await store.read { try await $0.feedRows(.slug("zoo"), lock: false) } == [zoo])
        #expect(try await store.read { try await $0.feedRows(.id(zooId), lock: true) } == [zoo], "lock is harmless in a read")
        #expect(try await store.read { try await $0.feedRows(.slug("none"), lock: false) }.isEmpty)

        // Every column is written as given, revision and stamps included: the decisions are the service's.
        var renamed = zoo
        renamed.revision = 7
        renamed.updatedAt = zoo.updatedAt.addingTimeInterval(60)
        renamed.apply(Feed(slug: "zoo", name: "The zoo", timeZone: "Europe/Vienna"))
        _ = try await store.transaction { [renamed] tx in try await tx.save(renamed) }
        #expect(try await store.read { try await $0.feedRow(id: zooId) } == renamed)

        // A second feed of one slug is refused, and changes nothing.
        await #expect(throws: (any Error).self) { try await store.transaction { tx in try await tx.save(Self.feed("bees", now: tx.now)) } }
        #expect(try await store.read { try await $0.feedRows(nil, lock: false).count } == 2)

        // Countdowns, sources and tokens go with their feed.
        try await store.transaction { tx in
            _ = try await tx.saveCountdowns([Self.countdown("a", title: "A", on: "2027-01-01", feedId: zooId, now: tx.now)])
            _ = try await tx.save(SourceRecord(feedId: zooId, location: "https://example.org/zoo.ics"))
            _ = try await tx.save(TokenRecord(feedId: zooId, label: "phone", tokenHash: "h", createdAt: tx.now, visibility: .full))
            try await tx.delete(FeedRecord.self, ids: [zooId])
        }
        try await store.read { reader async throws in
            #expect(try await reader.feedRows(nil, lock: false).map(\.slug) == ["bees"])
            #expect(try await reader.countdownRows(.feed(zooId, uid: nil)).isEmpty)
            #expect(try await reader.sourceRows(feedId: nil, lock: false).isEmpty)
            #expect(try await reader.tokenRows(feedId: nil).isEmpty)
        }
        _ = bees
    }

    /// Every feed's count and colours come from one read of all feeds
    /// (`feedTallies(feedId: nil)`, a server's start), the same as read one
    /// feed at a time; a feed with neither has none.
    @Test(arguments: StoreBackend.available) func feedTalliesOfEveryFeedAreThoseOfEachFeed(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend).store
        let (zoo, bees, empty) = try await store.transaction { tx in
            (try await tx.save(Self.feed("zoo", now: tx.now)).savedID(), try await tx.save(Self.feed("bees", now: tx.now)).savedID(),
             try await tx.save(Self.feed("empty", now: tx.now)).savedID())
        }
        try await store.transaction { tx in
            _ = try await tx.saveCountdowns(["a", "b", "c"].map { Self.countdown($0, title: $0, on: "2027-01-01", feedId: zoo, now: tx.now) }
                                            + [Self.countdown("a", title: "A", on: "2027-01-01", feedId: bees, now: tx.now)])
            try await tx.saveCategories(feedId: zoo, colors: ["Work": "#ff0000", "Home": "#00ff00"], links: [], replacing: false)
            try await tx.saveCategories(feedId: bees, colors: ["Work": "#0000ff"], links: [], replacing: false)
        }
        let all = try await store.read { try await $0.feedTallies(feedId: nil) }
        #expect(all[zoo] == FeedTally(countdownCount: 3, categoryColors: ["Work": "#ff0000", "Home": "#00ff00"]))
        #expect(all[bees] == FeedTally(countdownCount: 1, categoryColors: ["Work": "#0000ff"]))
        #expect(all[empty] == nil)
        for id in [zoo, bees, empty] {
            #expect(try await store.read { try await $0.feedTallies(feedId: id) } == (all[id].map { [id: $0] } ?? [:]), "one feed's, as in all")
        }
        let stored = try await store.feeds()
        #expect(stored.map(\.countdownCount) == [1, 0, 3], "by slug: bees, empty, zoo")
        #expect(stored.last?.feed.categoryColors == ["Work": "#ff0000", "Home": "#00ff00"])
        #expect(try await store.feed(slug: "zoo") == stored.last)
    }

    /// A large feed's export reads its rows a batch at a time in UID order,
    /// compared as bytes in every store (`BatchedExport`): "Z" before "a",
    /// "a" before "é", each batch after the last UID of the one before.
    @Test(arguments: StoreBackend.available) func countdownRowsByUIDComeInBatchesInByteOrder(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        let (feedId, otherId) = try await store.transaction { tx in
            (try await tx.save(Self.feed("school", now: tx.now)).savedID(), try await tx.save(Self.feed("other", now: tx.now)).savedID())
        }
        let uids = ["é", "b", "Z", "a", "ab", "a-", "10", "9"]
        _ = try await store.transaction { tx in
            try await tx.saveCountdowns(uids.map { Self.countdown($0, title: "T \($0)", on: "2027-03-01", feedId: feedId, now: tx.now) }
                                        + [Self.countdown("a0", title: "Elsewhere", on: "2027-03-01", feedId: otherId, now: tx.now)])
        }
        let sorted = uids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(sorted == ["10", "9", "Z", "a", "a-", "ab", "b", "é"])
        var read: [String] = []
        var after: String?
        while true {
            let batch = try await store.read { [after] in try await $0.countdownRows(.batch(feedId: feedId, after: after, limit: 3)) }
            read += batch.map(\.uid)
            guard batch.count == 3 else { break }
            after = batch.last?.uid
        }
        #expect(read == sorted, "every row once, in byte order, none of another feed")
        #expect(try await store.read { try await $0.countdownRows(.batch(feedId: feedId, after: "é", limit: 3)) }.isEmpty)
        #expect(try await store.read { try await $0.countdownRows(.batch(feedId: feedId, after: nil, limit: 0)) }.isEmpty)
    }

    @Test(arguments: StoreBackend.available) func countdownRowsComeSoonestFirstAndKeepTheirCreation(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        let feedId = try await store.transaction { tx in try await tx.save(Self.feed("school", now: tx.now)).savedID() }
        let created = temp.clock.now
        let ids = try await store.transaction { tx in
            try await tx.saveCountdowns([
                Self.countdown("late", title: "Zeugnis", on: "2027-07-01", feedId: feedId, now: tx.now),
                Self.countdown("b", title: "Biology", on: "2027-03-01", feedId: feedId, now: tx.now),
                Self.countdown("a", title: "Art", on: "2027-03-01", feedId: feedId, now: tx.now),
            ])
        }
        #expect(ids.count == 3 && Set(ids).count == 3)
        let rows = try await store.read { try await $0.countdownRows(.feed(feedId, uid: nil)) }
        #expect(rows.map(\.uid) == ["a", "b", "late"], "by start, then title, then id")
        #expect(try await store.read { try await $0.countdownRows(.feed(feedId, uid: "b")) }.map(\.title) == ["Biology"])
        #expect(try await store.read { try await $0.countdownRows(.id(ids[0], lock: false)).first }?.title == "Zeugnis")

        // An update writes every column but the creation date.
        temp.clock.advance(3600)
        var edited = try #require(rows.first)
        edited.title = "Art history"
        edited.sequence = 4
        edited.createdAt = temp.clock.now
        edited.lastModified = temp.clock.now
        let saved = try await store.transaction { [edited] tx in try await tx.saveCountdowns([edited]) }
        #expect(saved == [try edited.savedID()])
        let editedId = try edited.savedID()
        let found = try await store.read { try await $0.countdownRows(.id(editedId, lock: false)).first }
        let read = try #require(found)
        #expect(read.title == "Art history" && read.sequence == 4 && read.lastModified == temp.clock.now && read.createdAt == created)

        // A second row of one UID in a feed is refused, the whole transaction with it.
        await #expect(throws: (any Error).self) {
            try await store.transaction { tx in
                _ = try await tx.saveCountdowns([Self.countdown("new", title: "New", on: "2027-01-01", feedId: feedId, now: tx.now)])
                _ = try await tx.saveCountdowns([Self.countdown("a", title: "Again", on: "2027-01-01", feedId: feedId, now: tx.now)])
            }
        }
        #expect(try await store.read { try await $0.countdownRows(.feed(feedId, uid: nil)).count } == 3)

        try await store.transaction { tx in try await tx.delete(CountdownRecord.self, ids: [ids[1], ids[2]]) }
        #expect(try await store.read { try await $0.countdownRows(.feed(feedId, uid: nil)).map(\.uid) } == ["late"])
    }

    @Test(arguments: StoreBackend.available) func categoriesKeepColoursAndLinks(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend).store
        let (feedId, id) = try await store.transaction { tx in
            let feedId = try await tx.save(Self.feed("home", now: tx.now)).savedID()
            let id = try await tx.saveCountdowns([Self.countdown("x", title: "X", on: "2027-01-01", feedId: feedId, now: tx.now)])[0]
            try await tx.saveCategories(feedId: feedId, colors: ["Birthday": "#FF0000"], links: [CategoryLinks(countdownId: id, names: ["Birthday", "Family"])],
                                        replacing: false)
            return (feedId, id)
        }
        let stored = try await store.read { reader in try await reader.storedFeed(try await reader.requireFeedRow(feedId)) }
        #expect(stored.feed.categoryColors == ["Birthday": "#FF0000"] && stored.countdownCount == 1)
        try await store.transaction { tx in
            try await tx.saveCategories(feedId: feedId, colors: ["Family": "#00FF00"], links: [CategoryLinks(countdownId: id, names: ["Family"])], replacing: true)
        }
        let again = try await store.read { reader in try await reader.storedFeed(try await reader.requireFeedRow(feedId)) }
        #expect(again.feed.categoryColors == ["Birthday": "#FF0000", "Family": "#00FF00"], "other colours stay")
    }

    @Test(arguments: StoreBackend.available) func sourcesAndTokensAreRowsWrittenAsGiven(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        let (first, second) = try await store.transaction { tx in
            (try await tx.save(Self.feed("b", now: tx.now)).savedID(), try await tx.save(Self.feed("a", now: tx.now)).savedID())
        }
        var source = try await store.transaction { tx in
            _ = try await tx.save(SourceRecord(feedId: first, location: "https://example.org/z.ics"))
            _ = try await tx.save(SourceRecord(feedId: second, location: "https://example.org/y.ics"))
            return try await tx.save(SourceRecord(feedId: first, location: "https://example.org/a.ics"))
        }
        #expect(try await store.read { try await $0.sourceRows(feedId: first, lock: false).map(\.location) }
                == ["https://example.org/a.ics", "https://example.org/z.ics"])
        #expect(try await store.read { try await $0.sourceRows(feedId: nil, lock: false).count } == 3)
        source.etag = "\"v1\""
        source.lastModifiedHeader = "Mon, 23 Nov 2026 10:00:00 GMT"
        source.lastFetchedAt = temp.clock.now
        source.lastSuccessAt = temp.clock.now
        source.lastError = "timed out"
        source.subscribed = true
        source.login = "v1.sealed"
        source.rules = "exclude:\n  status: [someday]\n"
        source.importedWith = "digest"
        source.leaseUntil = temp.clock.now.addingTimeInterval(60)
        _ = try await store.transaction { [source] tx in try await tx.save(source) }
        #expect(try await store.read { try await $0.sourceRow(feedId: first, location: "https://example.org/a.ics", lock: true) } == source)
        await #expect(throws: (any Error).self, "one location per feed") {
            try await store.transaction { tx in try await tx.save(SourceRecord(feedId: first, location: "https://example.org/a.ics")) }
        }

        var token = try await store.transaction { tx in
            try await tx.save(TokenRecord(feedId: first, label: "phone", tokenHash: "h1", createdAt: tx.now, visibility: .busy))
        }
        _ = try await store.transaction { tx in try await tx.save(TokenRecord(feedId: second, label: "tablet", tokenHash: "h2", createdAt: tx.now, visibility: .full)) }
        token.lastUsedAt = temp.clock.now
        token.revokedAt = temp.clock.now
        _ = try await store.transaction { [token] tx in try await tx.save(token) }
        #expect(try await store.read { try await $0.tokenRows(feedId: first) } == [token])
        #expect(try await store.read { try await $0.tokenRows(feedId: nil).map(\.tokenHash) } == ["h1", "h2"], "by id")
    }

    /// The stamp a server's poll reads instead of every feed: it moves with
    /// each write of what the server keeps, whoever wrote, and not with a
    /// token's last use or a session.
    @Test(arguments: StoreBackend.available) func theChangeStampMovesWithWhatAServerKeeps(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        guard backend != .postgres else {
            #expect(try await store.changeStamp() == nil, "PostgreSQL keeps none: NOTIFY tells of feeds, and a poll compares")
            return
        }
        var last = try #require(try await store.changeStamp())
        func moved(_ why: Comment) async throws {
            let now = try #require(try await store.changeStamp())
            #expect(now != last, why)
            last = now
        }
        func still(_ why: Comment) async throws { #expect(try await store.changeStamp() == last, why) }

        let feed = try await store.transaction { tx in try await tx.save(Self.feed("zoo", now: tx.now)) }
        try await moved("a new feed")
        var token = try await store.transaction { tx in
            try await tx.save(TokenRecord(feedId: try feed.savedID(), label: "phone", tokenHash: "h1", createdAt: tx.now, visibility: .full))
        }
        try await moved("a new feed token")
        token.lastUsedAt = temp.clock.now
        token = try await store.transaction { [token] tx in try await tx.save(token) }
        try await still("a token's last use")
        try await store.transaction { tx in try await tx.setValue(PersistedValue(bytes: Data("s".utf8), expiresAt: nil), for: .entry(keyHash: "k")) }
        try await still("a session's entry")
        token.revokedAt = temp.clock.now
        _ = try await store.transaction { [token] tx in try await tx.save(token) }
        try await moved("a revoked token")
        let person = try await store.transaction { tx in try await tx.save(PersonRecord(login: "ben", displayName: "Ben", passwordHash: nil, createdAt: tx.now)) }
        try await moved("a new person")
        let space = try await store.transaction { tx in try await tx.save(SpaceRecord(slug: "family", name: "Family", createdAt: tx.now)) }
        try await moved("a new space")
        let (spaceId, personId) = (try space.savedID(), try person.savedID())
        try await store.transaction { tx in
            try await tx.setMember(spaceId: spaceId, personId: personId, to: MemberRecord(spaceId: spaceId, personId: personId, role: .viewer, joinedAt: tx.now))
        }
        try await moved("a new member")
        try await store.transaction { tx in try await tx.setMember(spaceId: spaceId, personId: personId, to: nil) }
        try await moved("a member removed")
        var personal = try await store.transaction { tx in
            try await tx.save(PersonTokenRecord(personId: personId, label: "laptop", tokenHash: "p1", readOnly: false, createdAt: tx.now))
        }
        try await moved("a new person token")
        personal.lastUsedAt = temp.clock.now
        personal = try await store.transaction { [personal] tx in try await tx.save(personal) }
        try await still("a person token's last use")
        personal.revokedAt = temp.clock.now
        _ = try await store.transaction { [personal] tx in try await tx.save(personal) }
        try await moved("a revoked person token")
        try await store.transaction { tx in try await tx.delete(PersonRecord.self, ids: [personId]) }
        try await moved("a person deleted")
    }

    @Test(arguments: StoreBackend.available) func valuesImagesAndExpiry(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let store = temp.store
        try await store.transaction { tx in
            try await tx.setValue(PersistedValue(bytes: Data("key".utf8), expiresAt: nil), for: .setting(.csrfKey))
            try await tx.setValue(PersistedValue(bytes: Data("soon".utf8), expiresAt: tx.now.addingTimeInterval(10)), for: .entry(keyHash: "a"))
            try await tx.setValue(PersistedValue(bytes: Data("later".utf8), expiresAt: tx.now.addingTimeInterval(100)), for: .entry(keyHash: "b"))
            try await tx.setValue(PersistedValue(bytes: Data("never".utf8), expiresAt: nil), for: .entry(keyHash: "c"))
            _ = try await tx.save(ImageRecord(sha256: "d1", mimeType: "image/png", bytes: Data([1, 2, 3]), createdAt: tx.now))
        }
        await #expect(throws: (any Error).self, "one row per digest: the service keeps a second upload as the first") {
            try await store.transaction { tx in _ = try await tx.save(ImageRecord(sha256: "d1", mimeType: "image/gif", bytes: Data([9]), createdAt: tx.now)) }
        }
        #expect(try await store.read { try await $0.setting(.csrfKey) } == "key")
        #expect(try await store.read { try await $0.value(for: .entry(keyHash: "a")) }?.bytes == Data("soon".utf8))
        #expect(try await store.read { try await $0.value(for: .setting(.cursorKey)) } == nil)
        let image = try await store.read { try await $0.image(digest: "d1") }
        #expect(image?.bytes == Data([1, 2, 3]) && image?.mimeType == "image/png", "the refused second row changed nothing")
        temp.clock.advance(50)
        #expect(try await store.transaction { tx in try await tx.deleteExpiredEntries() } == 1)
        try await store.transaction { tx in
            try await tx.setValue(nil, for: .entry(keyHash: "b"))
            try await tx.setValue(nil, for: .setting(.csrfKey))
        }
        try await store.read { reader async throws in
            #expect(try await reader.value(for: .entry(keyHash: "a")) == nil)
            #expect(try await reader.value(for: .entry(keyHash: "b")) == nil)
            #expect(try await reader.value(for: .entry(keyHash: "c")) != nil)
            #expect(try await reader.setting(.csrfKey) == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func aTransactionThatThrowsChangesNothingAndReadsItsOwnWrites(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend).store
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.transaction { tx in
                let feed = try await tx.save(Self.feed("draft", now: tx.now))
                #expect(try await tx.feedRow(id: try feed.savedID()) == feed, "a transaction sees its own writes")
                throw Refused()
            }
        }
        #expect(try await store.read { try await $0.feedRows(nil, lock: false) }.isEmpty)
        let check = try await store.check(.full)
        #expect(check.problem == nil && (backend == .memory || check.migrations?.isEmpty == false))
    }
}

extension StoreReader {
    func requireFeedRow(_ id: Int64) async throws -> FeedRecord {
        guard let row = try await feedRow(id: id) else { throw StoreError.invalid("no feed \(id)") }
        return row
    }
}

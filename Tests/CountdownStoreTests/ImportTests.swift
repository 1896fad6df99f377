import Countdowns
import Foundation
import ICalendar
import Testing
@testable import CountdownStore
import Services

struct ImportTests {
    @Test(arguments: StoreBackend.available) func importCountsAndIsIdempotent(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let data = try TemporaryStore.fixture("family.ics")
        let first = try await temp.store.service.importCalendar(data, intoFeed: "family", options: ImportOptions(source: "family.ics"))
        #expect(first.added == 5 && first.updated == 0 && first.unchanged == 0 && first.skipped.count == 1)
        #expect(first.skipped.first?.contains("broken@family.test") == true)
        let before = try await temp.dump()
        temp.clock.advance(3600)
        let second = try await temp.store.service.importCalendar(data, intoFeed: "family", options: ImportOptions(source: "family.ics"))
        #expect(second.added == 0 && second.updated == 0 && second.unchanged == 5)
        let after = try await temp.dump()
        let changed = Set(after.split(separator: "\n")).symmetricDifference(Set(before.split(separator: "\n")))
        // Only the source's "last fetched" bookkeeping may move; no countdown, feed or category row.
        #expect(changed.allSatisfy { $0.hasPrefix("source:") }, "re-importing changed: \(changed)")
        let feed = try #require(try await temp.store.feed(slug: "family"))
        #expect(feed.feed.name == "Family" && feed.feed.timeZone == "Europe/Budapest" && feed.countdownCount == 5)
        #expect(feed.feed.categoryColors == ["Birthday": "#FF9500"])
    }

    @Test(arguments: StoreBackend.available) func aRealChangeBumpsSequenceAndLastModifiedOnce(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let data = try TemporaryStore.fixture("family.ics")
        _ = try await temp.store.service.importCalendar(data, intoFeed: "family")
        temp.clock.advance(86_400)
        let edited = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "SUMMARY:Rent", with: "SUMMARY:Rent (flat)")
        let report = try await temp.store.service.importCalendar(Data(edited.utf8), intoFeed: "family")
        #expect(report.updated == 1 && report.unchanged == 4)
        let rent = try #require(try await temp.store.countdowns(inFeed: "family").first { $0.uid == "rent@family.test" })
        #expect(rent.title == "Rent (flat)" && rent.sequence == 1 && rent.lastModified == temp.clock.now)
        #expect(try await temp.store.feed(slug: "family")?.updatedAt == temp.clock.now)
    }

    @Test(arguments: StoreBackend.available) func strictImportWithErrorsChangesNothing(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        _ = try await temp.store.service.importCalendar(try TemporaryStore.fixture("family.ics"), intoFeed: "family")
        let before = try await temp.dump()
        let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:new@x\r\nDTSTART:2026x101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        await #expect(throws: StoreError.self) { try await temp.store.service.importCalendar(Data(broken.utf8), intoFeed: "family", options: ImportOptions(strict: true)) }
        await #expect(throws: StoreError.self) { try await temp.store.service.importCalendar(Data("not a calendar".utf8), intoFeed: "family") }
        #expect(try await temp.dump() == before)
    }

    @Test(arguments: StoreBackend.available) func limitsRefuseWithoutChangingAnything(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend, limits: StoreLimits(maxInputBytes: 4000, maxComponents: 3))
        let before = try await temp.dump()
        let big = Data(repeating: 65, count: 5000)
        await #expect(throws: StoreError.tooLarge(bytes: 5000, limit: 4000)) { try await temp.service.importCalendar(big, intoFeed: "family") }
        await #expect {
            try await temp.service.importCalendar(try TemporaryStore.fixture("family.ics").prefix(4000) + Data(), intoFeed: "family")
        } throws: { error in
            if case StoreError.tooManyComponents = error { return true }
            if case StoreError.unusableCalendar = error { return true }
            return false
        }
        #expect(try await temp.dump() == before)
    }

    @Test(arguments: StoreBackend.available) func syncRemovesWhatVanishedFromTheSource(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let data = try TemporaryStore.fixture("family.ics")
        _ = try await temp.store.service.importCalendar(data, intoFeed: "family", options: ImportOptions(source: "family.ics", sync: true))
        try await temp.store.service.add(Countdown(uid: "by-hand", title: "Mine", target: .date(CivilDate(year: 2027, month: 1, day: 1))), toFeed: "family")
        let shorter = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "UID:rent@family.test", with: "UID:rent-renamed@family.test")
        let report = try await temp.store.service.importCalendar(Data(shorter.utf8), intoFeed: "family", options: ImportOptions(source: "family.ics", sync: true))
        #expect(report.added == 1 && report.removed == 1)
        let uids = Set(try await temp.store.countdowns(inFeed: "family").map(\.uid))
        #expect(uids.contains("by-hand"), "countdowns from elsewhere are never removed by a sync")
        #expect(!uids.contains("rent@family.test"))
    }

    @Test(arguments: StoreBackend.available) func lastModifiedNeverMovesBackwardsDeletionsIncluded(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        _ = try await temp.store.service.importCalendar(try TemporaryStore.fixture("family.ics"), intoFeed: "family")
        let stamped = try #require(try await temp.store.feed(slug: "family")).updatedAt
        temp.clock.advance(-7200)   // a clock that jumps back (NTP, a VM restore)
        let victim = try #require(try await temp.store.countdowns(inFeed: "family").first)
        try await temp.store.service.delete(id: victim.id!)
        #expect(try await temp.store.feed(slug: "family")!.updatedAt >= stamped)
        temp.clock.advance(10_000)
        try await temp.store.service.delete(id: try await temp.store.countdowns(inFeed: "family").first!.id!)
        #expect(try await temp.store.feed(slug: "family")!.updatedAt == temp.clock.now)
    }

    @Test(arguments: StoreBackend.available) func editsBumpSequenceOnlyWhenSomethingChanged(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let added = try await temp.store.service.add(Countdown(uid: "x", title: "Exam", target: .date(CivilDate(year: 2027, month: 6, day: 1))), toFeed: try await temp.store.service.createFeed(Feed(slug: "school")).feed.slug)
        #expect(try await temp.store.service.update(added).sequence == 0)
        var edited = added
        edited.title = "Final exam"
        temp.clock.advance(60)
        let saved = try await temp.store.service.update(edited)
        #expect(saved.sequence == 1 && saved.lastModified == temp.clock.now)
        await #expect(throws: StoreError.duplicateUID("x", feed: "school")) { try await temp.store.service.add(added, toFeed: "school") }
    }

    @Test(arguments: StoreBackend.available) func imagesAreStoredApartAndListsCarryOnlyTheReference(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 2000))
        let image = try ImageUpload(png, mimeType: try #require(StoredImage.type(of: png)), limits: temp.limits)
        try await temp.store.service.createFeed(Feed(slug: "trips"))
        let holiday = Countdown(uid: "pic", title: "Holiday", target: .date(CivilDate(year: 2027, month: 7, day: 24)))
        let first = try await temp.store.service.add(holiday, toFeed: "trips", image: image)
        let second = try await temp.store.service.add(Countdown(uid: "pic2", title: "Beach", target: .date(CivilDate(year: 2027, month: 8, day: 1))),
                                                      toFeed: "trips", image: image)
        let reference = try #require(first.presentation.image)
        #expect(second.presentation.image == reference, "deduplicated by content")
        let listed = try await temp.store.countdowns(inFeed: "trips")
        #expect(listed.map(\.presentation.image) == [reference, reference])
        #expect(try await temp.store.image(reference)?.bytes == png)
        #expect(throws: StoreError.self) { try ImageUpload(Data("text".utf8), mimeType: "text/plain", limits: temp.limits) }
    }

    @Test(arguments: StoreBackend.available) func feedSlugsAreValidated(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        for bad in ["", "Family", "a b", "../etc", "-x", String(repeating: "a", count: 65)] {
            await #expect(throws: StoreError.invalidSlug(bad)) { try await temp.store.service.createFeed(Feed(slug: bad)) }
        }
        await #expect(throws: StoreError.feedNotFound("nope")) { try await temp.store.countdowns(inFeed: "nope") }
    }
}

import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services
import Testing
import TestSupport

/// Regression (issue #59, 14): a 30 MB description was kept, and nothing bounded what one person stored.
struct StorageQuotaTests {
    static func task(_ title: String, description: String? = nil, image: String? = nil) -> Countdown {
        var countdown = Countdown(uid: "\(title.lowercased().replacingOccurrences(of: " ", with: "-"))@quota.test", title: title,
                                  target: .utc(LocalDateTime(year: 2027, month: 1, day: 1)), kind: .task)
        countdown.notes = description
        if let image { countdown.presentation = Presentation(image: image) }
        return countdown
    }

    @Test(arguments: StoreBackend.available) func aPersonsAndASpacesFeedsStopAtTheirQuotaAndNothingIsChanged(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))
        try await service.setStorageQuota(StorageQuota(countdowns: 3, megabytes: 1, images: 1))
        #expect(try await service.storageQuota() == StorageQuota(countdowns: 3, megabytes: 1, images: 1))
        await #expect(throws: Authorization.Refused.self, "the quota is an administrator's to set") {
            try await asAnna.setStorageQuota(.standard)
        }

        try await asAnna.createFeed(Feed(slug: "mine"))
        for title in ["One", "Two", "Three"] { _ = try await asAnna.add(Self.task(title), toFeed: "mine") }
        await #expect(throws: StoreError.self, "a fourth countdown is over the quota") {
            try await asAnna.add(Self.task("Four"), toFeed: "mine")
        }
        do {
            _ = try await asAnna.add(Self.task("Four"), toFeed: "mine")
        } catch let error as StoreError {
            guard case .overQuota(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("4 countdowns, over the quota of 3") && message.contains("anna"), "\(message)")
        }
        #expect(try await asAnna.myUsage().usage.countdowns == 3, "the refused one was not kept")

        // An import that would go over is refused whole.
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
            + (1...2).map { "BEGIN:VEVENT\r\nUID:imp-\($0)@quota.test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20270101T000000Z\r\nSUMMARY:Imported \($0)\r\nEND:VEVENT\r\n" }.joined()
            + "END:VCALENDAR\r\n"
        try await asAnna.createFeed(Feed(slug: "other"))
        await #expect(throws: StoreError.self, "whoever imports: the quota is the owner's") { try await service.importCalendar(Array(calendar.utf8), intoFeed: "other") }
        #expect(try await asAnna.myUsage().usage.countdowns == 3, "nothing of the import was kept")

        // Over a lowered quota, an owner may still delete and shrink.
        try await service.setStorageQuota(StorageQuota(countdowns: 2, megabytes: 1, images: 1))
        let rows = try await temp.store.countdowns(inFeed: "mine")
        var shrunk = try #require(rows.first)
        shrunk.title = "1"
        _ = try await asAnna.update(shrunk)
        try await asAnna.delete(id: try #require(rows.last?.id))
        #expect(try await asAnna.myUsage().usage.countdowns == 2)

        // Bytes and images count too; one countdown's text is at most 1 MiB (413).
        try await service.setStorageQuota(StorageQuota(countdowns: 100, megabytes: 1, images: 1))
        let long = String(repeating: "a long description ", count: 40_000)   // 760 kB
        _ = try await asAnna.add(Self.task("Long", description: long), toFeed: "other")
        await #expect(throws: StoreError.self, "a second 760 kB text is over 1 MB") {
            try await asAnna.add(Self.task("Longer", description: long), toFeed: "other")
        }
        do {
            _ = try await asAnna.add(Self.task("Huge", description: String(repeating: "x", count: 2 << 20)), toFeed: "other")
        } catch let error as StoreError {
            guard case .countdownTooLarge(let title, let bytes, let limit) = error else { Issue.record("\(error)"); return }
            #expect(title == "Huge" && bytes > 2 << 20 && limit == 1 << 20)
        }
        #expect(try await temp.store.countdowns(inFeed: "other").map(\.title) == ["Long"], "neither the over-quota one nor the huge one was kept")
        let image = StoredImage.scheme + String(repeating: "ab", count: 32)
        _ = try await asAnna.add(Self.task("Pictured", image: image), toFeed: "other")
        #expect(try await asAnna.myUsage().usage.images == 1)
        await #expect(throws: StoreError.self, "a second image is over the quota of one") {
            try await asAnna.add(Self.task("Pictured too", image: image), toFeed: "other")
        }

        // A space has a quota of its own, apart from its members'.
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await asAnna.createFeed(Feed(slug: "chores"), inSpace: "family")
        for title in ["Bins", "Dishes"] { _ = try await asAnna.add(Self.task(title), toFeed: "chores") }
        try await service.setStorageQuota(StorageQuota(countdowns: 2, megabytes: 100, images: 10))
        do {
            _ = try await asAnna.add(Self.task("Lawn"), toFeed: "chores")
            Issue.record("a third countdown in the space is over its quota")
        } catch StoreError.overQuota(let message) {
            #expect(message.contains("the space 'family'"), "\(message)")
        }
        // Feeds of no one (the operator's) have none.
        try await service.createFeed(Feed(slug: "operator"))
        for title in ["A", "B", "C"] { _ = try await service.add(Self.task(title), toFeed: "operator") }
    }
}

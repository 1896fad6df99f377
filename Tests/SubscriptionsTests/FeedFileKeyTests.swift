import CountdownStore
import ServerTestSupport
import Services
import Foundation
import Logging
import Subscriptions
import Testing

/// Issue #63, 1: a misspelt key in a feed file was dropped by decoding, and
/// the feed was served empty, in UTC, with 200. Every key is now checked
/// against what the file may say, level by level.
struct FeedFileKeyTests {
    static func problem(_ text: String) -> FeedDefinitionError? {
        do {
            _ = try FeedDefinitionLoader.load(text: text, file: URL(fileURLWithPath: "/feeds/school.yaml"))
            return nil
        } catch { return error as? FeedDefinitionError }
    }

    @Test(arguments: [
        ("name: School\nsouces:\n  - file: exams.ics\n", 2, "`souces` is not a feed setting; did you mean `sources`?"),
        ("name: School\ntimeZnoe: Europe/Berlin\n", 2, "`timeZnoe` is not a feed setting; did you mean `timeZone`?"),
        ("sources:\n  - file: exams.ics\n    exlude: {status: [tentative]}\n", 3, "`exlude` in sources[0] is not a source setting; did you mean `exclude`?"),
        ("sources:\n  - file: exams.ics\n    exclude:\n      stauts: [tentative]\n", 4,
         "`stauts` in sources[0].exclude is not a condition; did you mean `status`?"),
        ("countdown:\n  mode: daily\n  dayz: 30\n", 3, "`dayz` in countdown is not a countdown: setting; did you mean `days`?"),
        ("rules:\n  dedupe: {by: uid, prefr: [a]}\n", 2, "`prefr` in rules.dedupe is not a dedupe: setting; did you mean `prefer`?"),
        ("notify:\n  - ntfy: https://ntfy.sh/x\n    milestone: [3]\n", 3, "`milestone` in notify[0] is not a notify: setting; did you mean `milestones`?"),
        ("defaults: &d\n  colour: '#ff0000'\nname: A\n<<: *d\n", 1, "`defaults` is not a feed setting"),
    ])
    func anUnknownKeyIsNamedWithItsLineAndTheNearestKnownOne(text: String, line: Int, message: String) throws {
        let error = try #require(Self.problem(text), "accepted: \(text)")
        #expect(error.line == line, "\(error)")
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.description.hasPrefix("/feeds/school.yaml:\(line): "), "\(error.description)")
    }

    @Test func keysThatAreDataAndOldSpellingsStillLoad() throws {
        #expect(Self.problem("""
            name: School
            timezone: Europe/Berlin
            categories: {Anything Goes: '#ff0000', exams: '#00ff00'}
            sources:
              - url: https://portal.example.org/cal.ics
                auth:
                  headers:
                    X-Any-Name: {env: HOME}

            """) == nil)
        let unknown = try #require(Self.problem("nmae: School\n"))
        #expect(unknown.message.contains("did you mean `name`?"), "\(unknown.message)")
        #expect(!unknown.message.contains("`timezone`"), "an old spelling is read but never suggested")
    }

    /// A file refused on a reload keeps the feed as it was: its sources are
    /// still read and the refusal is in health, until the file is mended.
    @Test func aFileRefusedOnAReloadKeepsTheFeedAsItWas() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-typo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20270110\r\nSUMMARY:Exam\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: folder.appendingPathComponent("exams.ics"))
        let file = folder.appendingPathComponent("school.yaml")
        try Data("name: School\ntimeZone: Europe/Berlin\nsources:\n  - file: exams.ics\n".utf8).write(to: file)
        let store = InMemoryCountdownStore()
        let loader = FeedLoader(service: store.service, fetcher: CalendarFetcher(maxBytes: 1 << 20, timeout: .seconds(5), allowPrivate: false), directory: folder,
                                logger: Logger(label: "test"))
        await loader.reload()
        #expect(loader.definitionErrors.isEmpty)
        #expect(loader.isDefined(feed: "school", location: folder.appendingPathComponent("exams.ics").standardizedFileURL.path))

        try Data("name: School\ntimeZone: Europe/Berlin\nsouces:\n  - file: exams.ics\n".utf8).write(to: file)
        await loader.reload()
        let expected = file.path + ":3: `souces` is not a feed setting; did you mean `sources`?"
        #expect(loader.definitionErrors == [expected], "\(loader.definitionErrors)")
        #expect(loader.isDefined(feed: "school", location: folder.appendingPathComponent("exams.ics").standardizedFileURL.path),
                "the feed keeps its definition from before")
        let feed = try #require(try await store.feed(slug: "school"))
        #expect(feed.feed.timeZone == "Europe/Berlin" && feed.countdownCount == 1, "and its zone and countdowns")
        #expect(loader.undefinedFeeds.isEmpty, "a refused file is not a removed one")

        // Issue #63, 8: a removed file keeps its feed, said in health, until `tminus feeds rm`.
        try FileManager.default.removeItem(at: file)
        await loader.reload()
        #expect(loader.definitionErrors.isEmpty)
        #expect(loader.undefinedFeeds == ["school"])
        #expect(try await store.feed(slug: "school")?.countdownCount == 1, "nothing is deleted because a file went missing")
        let restarted = FeedLoader(service: store.service, fetcher: CalendarFetcher(maxBytes: 1 << 20, timeout: .seconds(5), allowPrivate: false), directory: folder,
                                   logger: Logger(label: "test"))
        await restarted.reload()
        #expect(restarted.undefinedFeeds == ["school"], "known after a restart too, from the store")
    }
}

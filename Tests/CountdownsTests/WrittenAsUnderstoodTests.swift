import Foundation
import Testing
import TestSupport
import ICalendar
@testable import Countdowns

/// What tminus writes is what it understood (issue #39): every calendar it can
/// read, imported and exported as a feed (through the store's own text, as a
/// stored countdown is) and rewritten by `tminus format`, passes tminus's own
/// validation with no error and is read by Python's icalendar and
/// recurring-ical-events with no exception and no property they cannot read.
/// The calendars that first failed are kept in Fixtures/written, one per shape.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct WrittenAsUnderstoodTests {
    static let written = Corpus.packageRoot.appendingPathComponent("Tests/CountdownsTests/Fixtures/written")
    static let today = CivilDate(year: 2026, month: 11, day: 27)

    static func icsFiles(under directory: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "ics" }.sorted { $0.path < $1.path }
    }

    /// The feed export and the format output of one calendar; nil for a calendar tminus refuses.
    static func outputs(of file: URL) throws -> [(label: String, bytes: [UInt8])]? {
        guard let calendar = try? ICalendarParser.parse(contentsOf: file).calendar else { return nil }
        let read = CountdownReader.countdowns(in: calendar, source: nil).countdowns
        // Through the store's text and back, as every stored countdown is read.
        let stored = try read.compactMap { try CountdownArchive.countdown(from: CountdownArchive.text(of: $0)) }
        let feed = Feed(slug: "written", name: "Written")
        let export = CalendarExport.bytes(feed: feed, countdowns: stored, otherCalendarDates: OtherCalendarDates(today: today))
        let format = CalendarWriter().bytes(CalendarFormat.formatted(calendar, rscale: .dates, today: today).calendar)
        return [("export", export), ("format", format)]
    }

    /// Writes each output, checks it with tminus and with Python, and returns every problem found.
    static func problems(_ files: [URL]) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-written-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var problems: [String] = []
        var paths: [String: String] = [:]
        for (index, file) in files.enumerated() {
            for (label, bytes) in try outputs(of: file) ?? [] {
                let name = "\(file.lastPathComponent) (\(label))"
                let result = try ICalendarParser.parse(data: bytes)
                problems += result.errors.map { "\(name): tminus validate: \($0)" }
                let path = folder.appendingPathComponent("\(index)-\(label).ics").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                paths[path] = name
            }
        }
        let answer = try await PythonChecker.run(["read": Array(paths.keys), "from": "1970-01-01T00:00:00", "to": "2040-01-01T00:00:00"])
        for (path, name) in paths {
            let said = try #require(answer[path] as? [String], "no answer for \(name)")
            problems += said.map { "\(name): \($0)" }
        }
        return problems.sorted()
    }

    @Test func everyFixtureIsWrittenValid() async throws {
        let files = Self.icsFiles(under: Self.written)
            + Self.icsFiles(under: Corpus.packageRoot.appendingPathComponent("Tests/ICalendarTests/Fixtures"))
        #expect(files.count >= 40)
        let problems = try await Self.problems(files)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Corpus.available, "../shared/corpus not found"))
    func everyCorpusCalendarIsWrittenValid() async throws {
        let files = try Corpus.files(in: "calendars").filter { $0.pathExtension == "ics" }
        #expect(files.count >= 100)
        let problems = try await Self.problems(files)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }
}

/// The shapes one at a time: what is written, and what is said about it.
struct WrittenShapeTests {
    static func countdowns(_ name: String) throws -> [Countdown] {
        let calendar = try ICalendarParser.parse(contentsOf: WrittenAsUnderstoodTests.written.appendingPathComponent(name)).calendar
        return try CountdownReader.countdowns(in: calendar, source: nil).countdowns
            .compactMap { try CountdownArchive.countdown(from: CountdownArchive.text(of: $0)) }
    }

    static func exported(_ countdowns: [Countdown]) -> String {
        String(decoding: CalendarExport.bytes(feed: Feed(slug: "f"), countdowns: countdowns), as: UTF8.self)
            .replacingOccurrences(of: "\r\n ", with: "")
    }

    @Test func aMisspeltUntilIsLeftOutAndTheWarningKept() throws {
        let countdown = try #require(try Self.countdowns("misspelt-until.ics").first)
        #expect(countdown.repeatRule == .none)
        #expect(countdown.warnings.contains { $0.hasPrefix("RRULE:") && $0.contains("UNTL is not a rule part (did you mean UNTIL?)") })
        let text = Self.exported([countdown])
        #expect(!text.contains("\r\nRRULE"))
        let kept = CountdownReader.keptWarnings(in: try ICalendarParser.parse(text).calendar)
        #expect(kept.count == 1 && kept[0].severity == .warning && kept[0].message.contains("did you mean UNTIL?"))
    }

    @Test func anEndBeforeTheStartIsWrittenTheRightWayRound() throws {
        let countdown = try #require(try Self.countdowns("end-before-start.ics").first)
        #expect(countdown.target == .zoned(LocalDateTime(parsing: "20261205T100000")!, tzid: "Europe/Berlin"))
        #expect(countdown.end == .zoned(LocalDateTime(parsing: "20261205T120000")!, tzid: "Europe/Berlin"))
        #expect(countdown.warnings.count == 1)
    }

    @Test func valuesNotOfTheirTypeAreDroppedAndUnknownPropertiesKept() throws {
        let countdown = try #require(try Self.countdowns("values-not-of-their-type.ics").first)
        let text = Self.exported([countdown])
        #expect(!text.contains("\r\nGEO:") && !text.contains("\r\nPRIORITY:") && !text.contains("\r\nCREATED:yesterday"))
        #expect(text.contains("\r\nX-CUSTOM;X-PARAM=1:kept as it is\r\n"))
        #expect(countdown.warnings.filter { $0.hasPrefix("GEO:") || $0.hasPrefix("PRIORITY:") || $0.hasPrefix("CREATED:") }.count == 3)
    }

    @Test func aLenientRuleIsWrittenAsItIsReadAndAnEditOfNoInstanceLeftOut() throws {
        let countdown = try #require(try Self.countdowns("negative-count.ics").first)
        #expect(countdown.repeatRule.rrule(startingOn: countdown.target.civilDate) == "FREQ=WEEKLY;UNTIL=20261226T090000Z")
        #expect(countdown.overrides.isEmpty)
        #expect(countdown.warnings.contains { $0.hasPrefix("RECURRENCE-ID:") })
    }

    /// COUNT with UNTIL is read as whichever ends first (rule-count-and-until.ics), and written as that one.
    @Test func countAndUntilAreWrittenAsTheLimitThatEndsFirst() throws {
        let file = Corpus.packageRoot.appendingPathComponent("Tests/ICalendarTests/Fixtures/realworld/rule-count-and-until.ics")
        let countdowns = CountdownReader.countdowns(in: try ICalendarParser.parse(contentsOf: file).calendar, source: nil).countdowns
        let physio = try #require(countdowns.first { $0.uid == "count-and-until" })
        #expect(physio.repeatRule.rrule(startingOn: physio.target.civilDate) == "FREQ=DAILY;COUNT=3")
        let checkup = try #require(countdowns.first { $0.uid == "count-zero" })
        #expect(checkup.repeatRule == .none, "COUNT=0 adds nothing: the event is its first occurrence")
    }

    /// Already-valid output is written again unchanged: a second import of an export changes nothing.
    @Test func anExportReadAgainIsTheSame() throws {
        for name in ["misspelt-until.ics", "end-before-start.ics", "values-not-of-their-type.ics", "rdate-period-of-dates.ics"] {
            let first = try Self.countdowns(name)
            let again = CountdownReader.countdowns(in: try ICalendarParser.parse(Self.exported(first)).calendar, source: nil).countdowns
            #expect(again.map(CountdownArchive.text(of:)) == first.map(CountdownArchive.text(of:)), "\(name)")
        }
    }
}

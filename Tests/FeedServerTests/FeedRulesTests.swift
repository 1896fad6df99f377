@testable import FeedServer
import Foundation
import ServerTestSupport
import Subscriptions
import Testing

/// Issue #26: a source's rules match on more than the title, with patterns
/// that run in linear time.
struct FeedRulesTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//rules//EN\r
        BEGIN:VEVENT\r
        UID:standup@rules.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270104\r
        SUMMARY:Standup\r
        LOCATION:Online (Zoom)\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:review@rules.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270105\r
        SUMMARY:Review\r
        LOCATION:Room 4\r
        DESCRIPTION:Bring the draft\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:long@rules.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270106\r
        SUMMARY:\(String(repeating: "a", count: 3_000))!\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func rulesMatchTheDescriptionAndLocationAndAReDoSPatternCostsNothing() async throws {
        let fixture = try ServerFixture()
        try Data(Self.calendar.utf8).write(to: fixture.directory.appendingPathComponent("work.ics"))
        try Data("""
            name: Work
            sources:
              - file: ../work.ics
                exclude:
                  location: "(?i)online"
                  summary: "(a+)+$"

            """.utf8).write(to: fixture.feeds.appendingPathComponent("work.yaml"))
        try Data("""
            name: Drafts
            sources:
              - file: ../work.ics
                include:
                  description: "draft"

            """.utf8).write(to: fixture.feeds.appendingPathComponent("drafts.yaml"))
        try await fixture.withServer { client in
            let work = try await client.text("/feeds/work.ics").1
            #expect(work.contains("SUMMARY:Review") && !work.contains("SUMMARY:Standup"), "the online one is excluded by its location")
            #expect(work.contains("SUMMARY:aaaa"), "the long title does not end in a's: kept, and matching it did not hang the load")
            let drafts = try await client.text("/feeds/drafts.ics").1
            #expect(drafts.components(separatedBy: "BEGIN:VEVENT").count == 2 && drafts.contains("SUMMARY:Review"))
        }
    }

    static func longDescriptions(_ count: Int, length: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus tests//rules//EN"]
        for index in 0..<count {
            lines += ["BEGIN:VEVENT", "UID:long-\(index)@rules.test", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20270106", "SUMMARY:Long \(index)",
                      "DESCRIPTION:" + String(repeating: "ab", count: length / 2), "END:VEVENT"]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func replacing(_ pattern: String) -> String {
        """
        name: Long
        sources:
          - file: ../long.ics
            change:
              replace:
                - pattern: "\(pattern)"
                  with: "x"
                  field: description

        """
    }

    /// The second audit: `replace` with `a(.*z)?` over descriptions of
    /// 10k/20k/40k characters took 6/25/115 s, and the hourly refresh did it again.
    @Test func aReplaceOverLongDescriptionsIsQuickAndRight() async throws {
        let fixture = try ServerFixture()
        try Data(Self.longDescriptions(3, length: 40_000).utf8).write(to: fixture.directory.appendingPathComponent("long.ics"))
        try Data(Self.replacing("a(.*z)?").utf8).write(to: fixture.feeds.appendingPathComponent("long.yaml"))
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            #expect(try await client.text("/feeds/long.json").0.status == .ok)
            let contents = try #require(try await parts.store.feedContents(slug: "long", reusing: [:]))
            #expect(contents.countdowns.count == 3)
            for countdown in contents.countdowns {
                #expect(countdown.notes == String(repeating: "xb", count: 20_000), "every a replaced, greedily")
            }
        }
    }

    /// Rules past their CPU time fail the source's import with an error that
    /// names the rule and the event, and keep what the feed had.
    @Test func rulesPastTheirCPUTimeFailTheSourceNamingTheRuleAndTheEvent() async throws {
        let fixture = try ServerFixture()
        try Data(Self.longDescriptions(40, length: 60_000).utf8).write(to: fixture.directory.appendingPathComponent("long.ics"))
        // A pattern near the size limit, read over 60,000 characters forty times: far more than a millisecond.
        try Data(Self.replacing("(a|b|c|d){0,400}z").utf8).write(to: fixture.feeds.appendingPathComponent("long.yaml"))
        try await fixture.withServer(adjust: { $0.rulesBudget = .milliseconds(1) }) { client, parts in
            let health = try await client.text("/api/health", headers: fixture.admin).1
            #expect(health.contains("the rules took more than") && health.contains("sources[0].change") && health.contains("UID long-"), "\(health.prefix(800))")
            #expect(try await parts.store.feed(slug: "long").map(\.countdownCount) ?? 0 == 0, "nothing half-ruled was imported")
        }
    }

    @Test func aPatternThatCannotRunInLinearTimeIsADefinitionError() throws {
        let problem = FeedDefinitionCheck.problem(in: """
            sources:
              - url: https://example.org/calendar.ics
                include:
                  summary: "(a)\\\\1"

            """)
        #expect(problem?.contains("backreferences cannot be matched in linear time") == true, "\(problem ?? "")")
    }

    static let school = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//school//EN\r
        BEGIN:VEVENT\r
        UID:maths@school.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270110\r
        SUMMARY:Maths final\r
        DESCRIPTION:Room 12\r
        ATTENDEE:mailto:teacher@school.test\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:concert@school.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261220\r
        SUMMARY:Winter concert\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:training@school.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261215\r
        SUMMARY:Staff training\r
        STATUS:TENTATIVE\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:old@school.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20250101\r
        SUMMARY:Old trip\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:lesson@school.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20240902T080000\r
        DTEND;TZID=Europe/Berlin:20240902T094500\r
        RRULE:FREQ=WEEKLY\r
        SUMMARY:Double physics\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static let family = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//family//EN\r
        BEGIN:VEVENT\r
        UID:concert-copy@family.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261220\r
        SUMMARY:winter  Concert\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:anna@family.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270301\r
        RRULE:FREQ=YEARLY\r
        SUMMARY:Anna's birthday\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static let merged = """
        name: Everything
        timeZone: Europe/Berlin
        alarms: true
        sources:
          - file: ../school.ics
            name: school
            exclude:
              status: [tentative]
              duration: {atLeast: PT1H, atMost: PT3H}
            change:
              prefix: "School: "
              strip: [attendees, description]
              alarm: -P1D
          - file: ../family.ics
            name: family
            change:
              addCategories: [Family]
              color: "#1E90FF"
              replace:
                - {pattern: "(?i)birthday", with: "Birthday party"}
        rules:
          include:
            from: -7d
          dedupe:
            by: title-and-start
            prefer: [family]

        """

    func writeMerged(into fixture: ServerFixture) throws {
        try Data(Self.school.utf8).write(to: fixture.directory.appendingPathComponent("school.ics"))
        try Data(Self.family.utf8).write(to: fixture.directory.appendingPathComponent("family.ics"))
        try Data(Self.merged.utf8).write(to: fixture.feeds.appendingPathComponent("everything.yaml"))
    }

    @Test func aMergedFeedMarksEachSourceKeepsOneCopyAndDropsWhatTheRulesSay() async throws {
        let fixture = try ServerFixture()
        try writeMerged(into: fixture)
        try await fixture.withServer { client in
            let (response, body) = try await client.text("/feeds/everything.ics")
            #expect(response.status == .ok)
            let summaries = body.components(separatedBy: "\r\n").filter { $0.hasPrefix("SUMMARY:") }
            #expect(summaries.contains("SUMMARY:School: Maths final"))
            #expect(summaries.contains("SUMMARY:winter  Concert") && !summaries.contains { $0.contains("Winter concert") },
                    "the family's copy of the concert wins over the school's")
            #expect(summaries.contains("SUMMARY:Anna's Birthday party"))
            #expect(!body.contains("Staff training"), "tentative: excluded by status")
            #expect(!body.contains("Old trip"), "before the window (from: -7d)")
            #expect(!body.contains("Double physics"), "a 1h45 lesson: excluded by duration")
            #expect(!body.contains("ATTENDEE") && !body.contains("Room 12"), "stripped")
            #expect(body.contains("TRIGGER:-P1D"), "the school's events get an alarm the day before")
            #expect(body.contains("CATEGORIES:Family") && body.contains("COLOR:dodgerblue"))
        }
    }

    @Test func theDryRunSaysWhichRuleKeptChangedOrDroppedEachEvent() async throws {
        let fixture = try ServerFixture()
        try writeMerged(into: fixture)
        let report = try await RulesDryRun.run(feed: "everything", directory: fixture.feeds, now: fixture.clockNow)
        let lines = Dictionary(uniqueKeysWithValues: report.sources.flatMap(\.lines).map { ($0.uid, $0) })
        #expect(lines["maths@school.test"]?.result == "changed" && lines["maths@school.test"]?.newTitle == "School: Maths final")
        #expect(lines["maths@school.test"]?.because == ["sources[0].change.prefix", "sources[0].change.strip.description",
                                                         "sources[0].change.strip.attendees", "sources[0].change.alarm"])
        #expect(lines["concert@school.test"]?.result == "duplicate" && lines["concert@school.test"]?.because == ["family wins"])
        #expect(lines["training@school.test"]?.because == ["sources[0].exclude.status"])
        #expect(lines["lesson@school.test"]?.because == ["sources[0].exclude.duration"])
        #expect(lines["old@school.test"]?.because == ["rules.include.from"])
        #expect(lines["anna@family.test"]?.result == "changed")
        #expect(report.counts == ["changed": 3, "dropped": 3, "duplicate": 1])
        #expect(report.text.contains("Maths final → School: Maths final"))
    }

    @Test(arguments: [
        ("include: {status: [maybe]}", "status 'maybe' is not one of"),
        ("include: {from: yesterday}", "from: 'yesterday' is neither a date"),
        ("include: {after: 2027-01-01, before: 2026-01-01}", "the window ends before it begins"),
        ("include: {duration: {}}", "duration: needs atLeast:, atMost: or both"),
        ("change: {strip: [description], keep: [location]}", "strip: and keep: say the same thing two ways"),
        ("change: {strip: [secrets]}", "'secrets' is not one of"),
        ("change: {color: notacolour}", "neither #RRGGBB nor a CSS colour name"),
        ("change: {replace: [{pattern: '(a)\\1', with: b}]}", "backreferences cannot be matched in linear time"),
        ("change: {alarm: tomorrow}", "is not a duration before the start"),
    ])
    func aRuleThatCannotWorkIsADefinitionError(rule: String, message: String) throws {
        let problem = FeedDefinitionCheck.problem(in: """
            sources:
              - file: calendar.ics
                \(rule)

            """)
        #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
    }

    @Test func dedupeNamesSourcesThatExist() throws {
        let problem = FeedDefinitionCheck.problem(in: """
            sources:
              - {file: a.ics, name: school}
              - {file: b.ics}
            rules:
              dedupe: {by: title-and-start, prefer: [family]}

            """)
        #expect(problem?.contains("no source is named 'family' (sources are named 'school', 'b.ics'") == true, "\(problem ?? "accepted")")
        #expect(FeedDefinitionCheck.problem(in: "sources:\n  - {file: a.ics}\nrules: {dedupe: {by: title}}\n")?
            .contains("'title' is not one of uid, title-and-start") == true)
    }

    @Test func theAdminAPIAndTheWebAppPreviewTheRules() async throws {
        let fixture = try ServerFixture(transport: .live)
        try writeMerged(into: fixture)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, _, client in
            let (response, body) = try await client.text("/api/feeds/everything/rules", headers: fixture.admin)
            #expect(response.status == .ok)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let lines = (report["sources"] as? [[String: Any]])?.flatMap { ($0["lines"] as? [[String: Any]]) ?? [] } ?? []
            #expect(lines.first { $0["uid"] as? String == "concert@school.test" }?["result"] as? String == "duplicate")
            #expect(try await client.text("/api/feeds/everything/rules").0.status == .unauthorized)
            let page = try await browser.get("/app/feeds/everything/rules")
            #expect(page.status == .ok && page.text.contains("3 changed, 3 dropped, 1 duplicate"))
            #expect(page.text.contains("<td>Maths final → School: Maths final</td>") && page.text.contains("<td>sources[0].exclude.status</td>"))
            #expect(try await browser.get("/app/feeds/everything").text.contains("href=\"/app/feeds/everything/rules\""))
        }
    }
}

import Foundation
import Testing
@testable import FeedServer

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

    @Test func aPatternThatCannotRunInLinearTimeIsADefinitionError() throws {
        let problem = FeedDefinitionCheck.problem(in: """
            sources:
              - url: https://example.org/calendar.ics
                include:
                  summary: "(a)\\\\1"

            """)
        #expect(problem?.contains("backreferences cannot be matched in linear time") == true, "\(problem ?? "")")
    }
}

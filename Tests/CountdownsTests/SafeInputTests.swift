import Foundation
import Testing
@testable import Countdowns
import ICalendar

/// What text and links may hold on the way in (issue #27).
struct SafeInputTests {
    @Test func linksWithControlCharactersOrSpacesAreRefused() {
        for link in ["https://example.org/a\u{0}b", "https://example.org/a\nSet-Cookie: x=1", "https://example.org/a b",
                     "https://example.org/\r\n", "https://example.org/\u{7F}"] {
            #expect(!SafeLink.isAllowed(link, as: .url), "\(link.debugDescription)")
            #expect(SafeLink.problem(link, as: .url).contains("control character"))
        }
        #expect(!SafeLink.isAllowed("https://example.org/" + String(repeating: "a", count: 3_000), as: .image))
        #expect(SafeLink.isAllowed("https://example.org/a%20b?x=1#y", as: .url))
        var draft = CountdownDraft()
        draft.url = "https://example.org/\n"
        var countdown = Countdown(uid: "u", title: "T", target: .date(CivilDate(year: 2027, month: 1, day: 1)), kind: .event)
        #expect(throws: CountdownDraft.Invalid.self) { try draft.apply(to: &countdown, feedZone: "UTC") }
    }

    @Test func titlesAreCappedFromFormsAndCutFromCalendars() throws {
        var draft = CountdownDraft()
        draft.title = String(repeating: "x", count: SafeText.maxTitleCharacters + 1)
        draft.date = "2027-01-01"
        do { _ = try draft.makeCountdown(uid: "u", feedZone: "UTC"); Issue.record("a 501-character title was accepted") } catch {
            #expect(error.field == .title && error.message.contains("at most 500"), "\(error)")
        }
        draft.title = String(repeating: "x", count: SafeText.maxTitleCharacters)
        #expect(try draft.makeCountdown(uid: "u", feedZone: "UTC").title.count == 500)

        let summary = String(repeating: "🎂", count: 30_000)
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:long@t\r\nDTSTAMP:20260101T000000Z\r\n"
            + "SUMMARY:\(summary)\r\nDTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser.parse(text).calendar
        let title = try #require(CountdownReader.countdowns(in: calendar, source: nil).countdowns.first?.title)
        #expect(title.count == 500 && title.hasSuffix("…") && title.hasPrefix("🎂🎂"))
    }
}

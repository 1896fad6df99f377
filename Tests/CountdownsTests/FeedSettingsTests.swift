import Foundation
import Testing
@testable import Countdowns

/// One set of rules for feed settings, whether they come from YAML or the admin API.
struct FeedSettingsTests {
    @Test func validValuesAreNormalised() throws {
        #expect(try Feed.validTimeZone("W. Europe Standard Time") == "Europe/Berlin")
        #expect(try Feed.validColor("#f90") == "#FF9900")
        #expect(try Feed.validInterval("PT6H").seconds == 6 * 3600)
        #expect(try Feed.validCountdownMode(nil, days: nil, milestones: nil) == .daily(days: 60))
        #expect(try Feed.validCountdownMode("milestones", days: nil, milestones: [7, 0]) == .milestones([7, 0]))
    }

    @Test func invalidValuesNameTheProblem() {
        #expect(throws: Feed.InvalidSetting.self) { try Feed.validTimeZone("Mars/Base") }
        #expect(throws: Feed.InvalidSetting.self) { try Feed.validColor("red") }
        #expect(throws: Feed.InvalidSetting.self) { try Feed.validInterval("-PT1H") }
        #expect(throws: Feed.InvalidSetting(message: "'PT30S' is not a duration of at least 60 second(s), such as PT6H")) {
            try Feed.validInterval("PT30S", minimumSeconds: 60)
        }
        #expect(throws: Feed.InvalidSetting(message: "countdown days must be 1 to 366, not 0")) { try Feed.validCountdownMode("daily", days: 0, milestones: nil) }
        #expect(throws: Feed.InvalidSetting.self) { try Feed.validCountdownMode("milestones", days: nil, milestones: [-1]) }
        #expect(throws: Feed.InvalidSetting.self) { try Feed.validCountdownMode("weekly", days: nil, milestones: nil) }
    }

    @Test func oneDocumentReadsAppliesAndShowsEverySetting() throws {
        let json = #"{"name":"Family","timezone":"W. Europe Standard Time","public":false,"sort":"title","countdown":{"mode":"milestones"}}"#
        let document = try JSONDecoder().decode(FeedSettingsDocument.self, from: Data(json.utf8))
        #expect(document.deprecatedKeys == ["timezone"])
        var feed = Feed(slug: "family")
        try document.apply(to: &feed)
        #expect(feed.name == "Family" && feed.timeZone == "Europe/Berlin" && !feed.isPublic && feed.sort == .title)
        #expect(feed.countdownMode == .milestones(Feed.CountdownMode.defaultMilestones))
        let shown = FeedSettingsDocument(feed)
        #expect(shown.sort == "title" && shown.public == false && shown.timeZone == "Europe/Berlin")
        var again = Feed(slug: "family")
        try shown.apply(to: &again)
        #expect(again == feed, "what a feed shows applies back to the same feed")
        let encoded = String(decoding: try JSONEncoder().encode(shown), as: UTF8.self)
        #expect(encoded.contains(#""public":false"#) && !encoded.contains("timezone"))
    }

    @Test func aBadValueLeavesTheFeedAsItWas() throws {
        var document = FeedSettingsDocument()
        document.name = "Renamed"
        document.sort = "alphabetical"
        var feed = Feed(slug: "family")
        #expect(throws: Feed.InvalidSetting(message: "sort: 'alphabetical' must be remaining or title")) { try document.apply(to: &feed) }
        #expect(feed.name == "family", "nothing is applied when one setting is refused")
    }
}

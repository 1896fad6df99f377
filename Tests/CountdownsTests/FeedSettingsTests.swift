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
}

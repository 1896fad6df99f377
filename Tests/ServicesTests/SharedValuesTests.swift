import Countdowns
import ICalendar
import Testing
import CountdownStore
@testable import Services

/// A feed's countdowns share the equal values they carry (issue #41: strings
/// shared): the same attendee, location or categories held once, not once a row.
struct SharedValuesTests {
    private static func countdown(_ uid: String, line: Int) -> Countdown {
        var countdown = Countdown(uid: uid, title: "Stand-up", target: .date(CivilDate(year: 2027, month: 3, day: 1)))
        // Built from pieces, as a parse does: equal values in storage of their own.
        let name = ["mailto:anna.schmidt", "@team.example.org"].joined()
        countdown.extraProperties = [Property(name: "ATTENDEE", parameters: [Parameter(name: "CN", values: [["Anna ", "Schmidt"].joined()])],
                                              value: name, line: line),
                                     Property(name: "TRANSP", value: "OPAQUE")]
        countdown.location = ["Meeting room ", "Kepler, 3rd floor"].joined()
        countdown.categories = [["Meet", "ing"].joined(), "Team"]
        return countdown
    }

    private static func address(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    private static func address<T>(_ array: [T]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func equalValuesOfTwoCountdownsShareOneCopyAndKeepTheirLines() {
        var first = Self.countdown("a", line: 4), second = Self.countdown("b", line: 9)
        #expect(Self.address(first.extraProperties[0].value) != Self.address(second.extraProperties[0].value), "the fixture's copies are apart")
        let shared = SharedValues()
        shared.share(&first)
        shared.share(&second)
        #expect(Self.address(first.extraProperties[0].value) == Self.address(second.extraProperties[0].value))
        #expect(Self.address(first.extraProperties[0].parameters) == Self.address(second.extraProperties[0].parameters))
        #expect(Self.address(first.location!) == Self.address(second.location!))
        #expect(Self.address(first.categories) == Self.address(second.categories))
        #expect(first.extraProperties.map(\.line) == [4, 0] && second.extraProperties.map(\.line) == [9, 0], "a property's line stays its own")
        #expect(first == Self.countdown("a", line: 4) && second == Self.countdown("b", line: 9), "the values are unchanged")
    }

    @Test func differentValuesStayApart() {
        var first = Self.countdown("a", line: 1), second = Self.countdown("b", line: 1)
        second.location = "Another room, ground floor"
        let shared = SharedValues()
        shared.share(&first)
        shared.share(&second)
        #expect(first.location == "Meeting room Kepler, 3rd floor" && second.location == "Another room, ground floor")
    }
}

import ICalendar
import Testing
@testable import Countdowns

/// A countdown keeps the fields most leave unset out of line (issue #41:
/// memory by the countdown), and is still a plain value: copies are
/// independent, and equality and hashing see only what is set.
struct CountdownRareFieldsTests {
    private static func plain() -> Countdown {
        Countdown(uid: "exam", title: "Exam", target: .date(CivilDate(year: 2027, month: 6, day: 1)))
    }

    @Test func theRareFieldsTakeOnePointerInline() {
        // 552 bytes with every field inline (session 28's measure), 328 with them out of line.
        #expect(MemoryLayout<Countdown>.size <= 336, "\(MemoryLayout<Countdown>.size) bytes")
    }

    @Test func aCopyChangesAloneAndTheOriginalKeepsItsFields() {
        var first = Self.plain()
        first.alarms = [ICalDuration(days: 1, isNegative: true)]
        first.url = "https://example.org/exam"
        var second = first
        second.alarms.append(ICalDuration(seconds: 3_600, isNegative: true))
        second.url = nil
        #expect(first.alarms.count == 1 && first.url == "https://example.org/exam")
        #expect(second.alarms.count == 2 && second.url == nil)
        #expect(first != second)
    }

    @Test func fieldsSetBackToTheirDefaultsCompareAndHashAsNeverSet() {
        var changed = Self.plain()
        changed.priority = 3
        changed.presentation.gradient = ["#000", "#fff"]
        #expect(changed != Self.plain())
        changed.priority = nil
        changed.presentation = .default
        #expect(changed == Self.plain())
        #expect(changed.hashValue == Self.plain().hashValue)
        #expect(Set([changed, Self.plain()]).count == 1)
    }

    @Test func everyRareFieldReadsBackWhatWasWritten() {
        var countdown = Self.plain()
        let zoned = DateTimeValue.utc(LocalDateTime(wallSeconds: 1_800_000_000))
        countdown.duration = ICalDuration(seconds: 5_400)
        countdown.exceptionDates = [zoned]
        countdown.countsFrom = CivilDate(year: 2027, month: 1, day: 10)
        countdown.calendarColor = "teal"
        countdown.percentComplete = 40
        countdown.completedAt = zoned
        countdown.warnings = ["RRULE left out"]
        countdown.extraComponents = [Component(name: "X-THING", properties: [], components: [])]
        #expect(countdown.duration?.seconds == 5_400 && countdown.exceptionDates == [zoned])
        #expect(countdown.countsFrom == CivilDate(year: 2027, month: 1, day: 10) && countdown.calendarColor == "teal")
        #expect(countdown.percentComplete == 40 && countdown.completedAt == zoned)
        #expect(countdown.warnings == ["RRULE left out"] && countdown.extraComponents.map(\.name) == ["X-THING"])
        #expect(Self.plain().recurrenceDates.isEmpty && Self.plain().overrides.isEmpty && Self.plain().timeZoneDefinitions.isEmpty)
    }
}

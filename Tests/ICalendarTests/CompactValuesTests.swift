import Testing
@testable import ICalendar

/// Dates and wall times are stored compactly (a compiled 10,000-countdown feed
/// keeps hundreds of thousands of them) behind the same Int API.
@Suite struct CompactValuesTests {
    @Test func datesAndWallTimesStaySmall() {
        #expect(MemoryLayout<CivilDate>.size == 8)
        #expect(MemoryLayout<LocalDateTime>.stride == 12)
        #expect(MemoryLayout<DateTimeValue>.stride <= 32, "a zoned value is a wall time and a TZID string")
    }

    @Test func fieldsReadBackAsWrittenAcrossTheCalendarRange() {
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {   // 0001-01-01 … 9999-12-31
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.isValid)
            #expect(date.daysSinceEpoch == days)
            #expect(CivilDate(parsing: date.iso) == date)
        }
        let time = LocalDateTime(year: 2026, month: 11, day: 23, hour: 23, minute: 59, second: 60)
        #expect((time.hour, time.minute, time.second) == (23, 59, 60))
        #expect(LocalDateTime(wallSeconds: time.wallSeconds) == LocalDateTime(year: 2026, month: 11, day: 24))
    }

    /// Values no calendar holds are clamped, not trapped: no input may crash the process.
    @Test func outOfRangeFieldsClampInsteadOfTrapping() {
        let far = CivilDate(year: Int.max, month: -1_000_000, day: 1_000_000)
        #expect(far.year == Int(Int32.max) && far.month == Int(Int16.min) && far.day == Int(Int16.max))
        #expect(!far.isValid)
        var time = LocalDateTime(year: 2026, month: 1, day: 1)
        time.hour = 1_000
        #expect(time.hour == 127)
    }
}

import Testing
@testable import ICalendar

struct DiagnosticsTests {
    static let broken = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:first\r
        SUMMARY:A folded\r
          summary\r
        DTSTART:2026x101T100000\r
        RRULE:FREQ=WEEKLY;BYDAY=XX\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:second\r
        DTSTART;TZID=Mars/Olympus_Mons:20260101T100000\r
        PRIORITY:urgent\r
        X-LIC-ERROR;X-LIC-ERRORTYPE=VALUE-PARSE-ERROR:No value for DTEND\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func diagnosticsNameLineUIDAndProperty() throws {
        let result = try ICalendarParser.parse(Self.broken)
        let byProperty = Dictionary(grouping: result.diagnostics, by: { $0.property ?? "" })
        let dtstart = try #require(byProperty["DTSTART"]?.first { $0.uid == "first" })
        #expect(dtstart.line == 7 && dtstart.severity == .error && dtstart.component == "VEVENT")
        let rrule = try #require(byProperty["RRULE"]?.first)
        #expect(rrule.line == 8 && rrule.uid == "first" && rrule.message.contains("BYDAY=XX: XX is not a weekday (MO TU WE TH FR SA SU"))
        let tzid = try #require(byProperty["DTSTART"]?.first { $0.uid == "second" })
        #expect(tzid.line == 12 && tzid.message.contains("unknown TZID 'Mars/Olympus_Mons'"))
        #expect(byProperty["PRIORITY"]?.first?.severity == .warning)
        #expect(byProperty["X-LIC-ERROR"]?.first?.line == 14)
        #expect(dtstart.description.hasPrefix("line 7, VEVENT (UID first), DTSTART: error:"))
    }

    @Test func libicalErrorPropertiesAreNeverWrittenBack() throws {
        let calendar = try ICalendarParser.parse(Self.broken).calendar
        #expect(!CalendarWriter(timeZones: .keep).write(calendar).contains("X-LIC-ERROR"))
    }

    @Test func lenientKeepsWhatIsUsableStrictThrowsEveryError() throws {
        let lenient = try ICalendarParser.parse(Self.broken)
        #expect(lenient.calendar.events.count == 2)
        #expect(lenient.calendar.events[0].summary == "A folded summary")
        #expect(throws: ICalendarError.invalid(lenient.errors)) { try ICalendarParser.parse(Self.broken, options: .strict) }
    }

    @Test func inputThatIsNotICalendarSaysSo() {
        for input in ["", "hello world", "{\"json\": true}", "BEGIN:VCARD\r\nFN:Anna\r\nEND:VCARD\r\n"] {
            #expect {
                try ICalendarParser.parse(input)
            } throws: { error in
                guard case ICalendarError.notICalendar = error else { return false }
                return "\(error)".hasPrefix("not an iCalendar file")
            }
        }
    }

    @Test func brokenNestingIsRepairedAndReported() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T000000Z\r\nEND:VCALENDAR\r\nEND:VEVENT\r\n"
        let result = try ICalendarParser.parse(text)
        #expect(result.calendar.events.first?.uid == "x")
        #expect(result.errors.map(\.line).sorted() == [2, 6])
    }

    @Test func nestingDepthIsLimited() {
        let deep = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X-A\r\n", count: 100)
        #expect(throws: ICalendarError.self) { try ICalendarParser.parse(deep) }
    }

    @Test func rruleValidationNamesTheProblem() {
        #expect(throws: RecurrenceRule.Invalid(message: "FREQ is missing")) { try RecurrenceRule(parsing: "COUNT=3") }
        #expect(throws: RecurrenceRule.Invalid(message: "COUNT and UNTIL must not both be given (a lenient reading applies both limits)")) {
            try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3;UNTIL=20260101")
        }
        #expect(throws: RecurrenceRule.Invalid(message: "COUNT=0 is not a positive integer (a lenient reading keeps DTSTART alone)")) {
            try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=0")
        }
        #expect(throws: RecurrenceRule.Invalid.self) { try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=0") }
        #expect((try? RecurrenceRule(parsing: "freq=yearly;bymonth=2;bymonthday=28,29;bysetpos=-1")) != nil)
    }

    /// Strict mode still refuses what the lenient reading repairs, with the line and property.
    @Test func strictModeStillRefusesWhatLenientReadingRepairs() throws {
        let calendar = Fixtures.calendar("DTSTART:20260401T080000Z\nRRULE:FREQ=DAILY;COUNT=3;UNTIL=20260410T080000Z")
        #expect(throws: ICalendarError.self) { try ICalendarParser.parse(calendar, options: .strict) }
        let lenient = try ICalendarParser.parse(calendar)
        let error = try #require(lenient.errors.first)
        #expect(error.property == "RRULE" && error.line == 7)
        #expect((try? RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3;UNTIL=20260410T080000Z", lenient: true))?.count == 3)
        #expect((try? RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=-1", lenient: true))?.count == nil)
    }
}

import ICalendar
import Testing
@testable import Services

/// Issue #62: what of a shared object is each person's own (alarms, TRANSP,
/// the marks of a dismissed alarm), per instance, and what is everyone's.
struct PersonalPartTests {
    static func calendar(_ text: String) throws -> VCalendar {
        try ICalendarParser.parse(text.replacingOccurrences(of: "\n", with: "\r\n"), options: ParseOptions(mode: .lenient)).calendar
    }

    static let series = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//t//EN
        BEGIN:VEVENT
        UID:standup@team
        DTSTAMP:@STAMP@
        DTSTART:20270104T090000Z
        RRULE:FREQ=DAILY;COUNT=5
        SUMMARY:Stand-up
        TRANSP:OPAQUE
        MASTER_ALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:standup@team
        RECURRENCE-ID:20270106T090000Z
        DTSTAMP:@STAMP@
        DTSTART:20270106T100000Z
        SUMMARY:Stand-up (late)
        X-MOZ-LASTACK:20270106T095500Z
        END:VEVENT
        END:VCALENDAR
        """

    static func text(stamp: String = "20260101T000000Z", alarm: String = "") -> String {
        series.replacingOccurrences(of: "@STAMP@", with: stamp).replacingOccurrences(of: "MASTER_ALARM\n", with: alarm)
    }

    static let alarm = "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Stand-up\nTRIGGER:-PT10M\nEND:VALARM\n"

    @Test func theAlarmsTranspAndAcknowledgementsArePerInstanceAndTheRestIsShared() throws {
        let plain = try Self.calendar(Self.text())
        let withAlarm = try Self.calendar(Self.text(stamp: "20261204T120000Z", alarm: Self.alarm))
        #expect(PersonalPart.shared(of: plain) == PersonalPart.shared(of: withAlarm), "an alarm and a new DTSTAMP change nothing shared")
        let part = PersonalPart(of: withAlarm)
        #expect(part.instances[""]?.alarms.count == 1 && part.instances[""]?.properties.map(\.name) == ["TRANSP"])
        #expect(part.instances["20270106T090000Z"]?.properties.map(\.name) == ["X-MOZ-LASTACK"] && part.instances["20270106T090000Z"]?.alarms == [])
        #expect(part != PersonalPart(of: plain))
        let renamed = try Self.calendar(Self.text().replacingOccurrences(of: "SUMMARY:Stand-up (late)", with: "SUMMARY:Moved"))
        #expect(PersonalPart.shared(of: renamed) != PersonalPart.shared(of: plain), "a title is everyone's")
    }

    @Test func aPartMergedIntoTheSharedObjectReplacesOnlyWhatIsOwnAndSurvivesItsText() throws {
        let part = PersonalPart(text: PersonalPart(of: try Self.calendar(Self.text(alarm: Self.alarm))).text)
        #expect(part == PersonalPart(of: try Self.calendar(Self.text(alarm: Self.alarm))), "kept as text and read back the same")
        // Everyone's object has another alarm and a new title: the person gets theirs, and the new title.
        let everyones = try Self.calendar(Self.text(alarm: Self.alarm.replacingOccurrences(of: "-PT10M", with: "-P1D"))
            .replacingOccurrences(of: "SUMMARY:Stand-up\n", with: "SUMMARY:Daily stand-up\n"))
        let merged = part.merged(into: everyones)
        let master = try #require(merged.events.first { $0.component.first("RECURRENCE-ID") == nil }?.component)
        #expect(master.children("VALARM").map { $0.first("TRIGGER")?.value } == ["-PT10M"] && master.first("SUMMARY")?.value == "Daily stand-up")
        #expect(master.all("TRANSP").count == 1)
        // An instance the part does not know keeps what everyone sees.
        var more = everyones
        var extra = try #require(everyones.events.last)
        extra.component.set("RECURRENCE-ID", Property(name: "RECURRENCE-ID", value: "20270107T090000Z"))
        extra.component.components = [Component(name: "VALARM", properties: [Property(name: "ACTION", value: "DISPLAY"), Property(name: "TRIGGER", value: "-PT1M")])]
        more.events.append(extra)
        let kept = part.merged(into: more).events.first { $0.component.first("RECURRENCE-ID")?.value == "20270107T090000Z" }
        #expect(kept?.component.children("VALARM").first?.first("TRIGGER")?.value == "-PT1M")
        #expect(PersonalPart(text: "not a calendar") == PersonalPart(), "unreadable: the person sees what everyone does")
    }
}

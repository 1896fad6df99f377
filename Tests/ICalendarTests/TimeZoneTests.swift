import Foundation
import Testing
@testable import ICalendar

struct TimeZoneTests {
    @Test func lookupIsSafeUnderConcurrency() async throws {
        // Names outside zone.tab crash libical 3.0.16 when looked up from several threads at once.
        let names = ["US/Eastern", "Etc/UTC", "Europe/Berlin", "US/Pacific", "Etc/GMT+5", "Asia/Tokyo",
                     "W. Europe Standard Time", "/freeassociation.sourceforge.net/Europe/Paris", "America/New_York"]
        let offsets = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for round in 0..<400 {
                let name = names[round % names.count]
                group.addTask {
                    let zone = try #require(TimeZoneRegistry.shared.zone(named: name))
                    return (name, zone.utcOffset(forLocal: LocalDateTime(year: 2026, month: 7, day: 1, hour: 12)))
                }
            }
            var seen: [String: Set<Int>] = [:]
            for try await (name, offset) in group { seen[name, default: []].insert(offset) }
            return seen
        }
        #expect(offsets.values.allSatisfy { $0.count == 1 }, "the same lookup gave different answers: \(offsets)")
        #expect(offsets["US/Eastern"] == [-4 * 3600])
        #expect(offsets["Asia/Tokyo"] == [9 * 3600])
    }

    @Test func namesResolveToPlainOlsonZones() throws {
        #expect(Zone.named("W. Europe Standard Time")?.identifier == "Europe/Berlin")
        #expect(Zone.named("eastern standard time")?.identifier == "America/New_York")
        #expect(Zone.named("/freeassociation.sourceforge.net/Europe/Budapest")?.identifier == "Europe/Budapest")
        #expect(Zone.named("/mozilla.org/20050126_1/Europe/London")?.identifier == "Europe/London")
        #expect(Zone.named("UTC")?.isUTC == true)
        #expect(Zone.named("Mars/Olympus_Mons") == nil)
    }

    @Test func gapAndFoldFollowRFC5545() throws {
        let berlin = try #require(Zone.named("Europe/Berlin"))
        // 2027-03-28 02:30 does not exist in Berlin: the offset before the gap (+1h) applies → 01:30Z.
        #expect(berlin.instant(of: LocalDateTime(year: 2027, month: 3, day: 28, hour: 2, minute: 30)) == Fixtures.instant("20270328T013000Z"))
        // 2026-10-25 02:30 happens twice: the first (CEST, +2h) is meant → 00:30Z.
        #expect(berlin.instant(of: LocalDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30)) == Fixtures.instant("20261025T003000Z"))
        #expect(berlin.local(of: Fixtures.instant("20261025T013000Z")) == LocalDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30))
    }

    @Test func zonesAheadOfAndBehindUTC() throws {
        let auckland = try #require(Zone.named("Pacific/Auckland"))
        let honolulu = try #require(Zone.named("Pacific/Honolulu"))
        let instant = Fixtures.instant("20261231T120000Z")
        #expect(auckland.local(of: instant) == LocalDateTime(year: 2027, month: 1, day: 1, hour: 1))
        #expect(honolulu.local(of: instant) == LocalDateTime(year: 2026, month: 12, day: 31, hour: 2))
    }

    @Test func embeddedVTimeZoneIsHonoured() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VTIMEZONE\r
            TZID:My Office Time\r
            BEGIN:STANDARD\r
            DTSTART:19700101T000000\r
            TZOFFSETFROM:+0530\r
            TZOFFSETTO:+0530\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:office\r
            DTSTART;TZID=My Office Time:20261201T100000\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let result = try ICalendarParser.parse(text)
        #expect(result.errors.isEmpty)
        let resolver = ZoneResolver(calendar: result.calendar)
        #expect(resolver.instant(of: result.calendar.events[0].dtstart!) == Fixtures.instant("20261201T043000Z"))
        // A zone tminus cannot name keeps its own definition when written.
        let written = CalendarWriter().write(result.calendar)
        #expect(written.contains("TZID:My Office Time\r\n"))
    }

    @Test func xwrTimezoneGovernsFloatingTimes() throws {
        let calendar = try ICalendarParser.parse(contentsOf: Fixtures.url("interop/xwr.ics")).calendar
        let resolver = ZoneResolver(calendar: calendar, floatingZone: .utc)
        #expect(resolver.floatingZone.identifier == "America/Los_Angeles")
        #expect(resolver.instant(of: calendar.events[0].dtstart!) == Fixtures.instant("20261102T000000Z"))
    }

    /// A TZID written with quotes or spaces around it names the same zone (trimmed only when padded).
    @Test func paddedAndQuotedNamesNameTheSameZone() {
        for name in ["Europe/Berlin", "\"Europe/Berlin\"", " Europe/Berlin\t", "\"Europe/Berlin"] {
            #expect(TimeZoneRegistry.shared.zone(named: name)?.identifier == "Europe/Berlin", "\(name)")
        }
        #expect(TimeZoneRegistry.shared.zone(named: "\"\"") == nil)
        #expect(TimeZoneRegistry.shared.zone(named: "") == nil)
    }
}

@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import TestSupport

/// CalDAV's time-range match against a second implementation (issue #62, 1): random
/// calendars of one-offs and repeats (every FREQ but the sub-daily ones, INTERVAL,
/// COUNT, UNTIL, BYDAY, BYMONTHDAY; UTC, a northern and a southern DST zone, a
/// half-hour offset, all-day), put into a calendar over CalDAV, then random windows
/// asked with `calendar-query` and compared, UID for UID, with recurring-ical-events'
/// `between` over the same file; some repeats with an EXDATE and a moved instance
/// (RECURRENCE-ID). A fixed seed: a failure names its case. The server answers a
/// time range from the feed's compiled series (what they keep, else an expansion),
/// so the windows around the server's today and those far from it test both.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct TimeRangeAgreementTests {
    static let zones = ["Europe/Berlin", "America/Sao_Paulo", "Asia/Kolkata"]
    static let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// One event's VEVENT lines, from the generator.
    static func event(_ index: Int, _ random: inout SplitMix) -> String {
        let month = 1 + random.below(12), day = 1 + random.below(28), hour = random.below(24), minute = [0, 15, 30, 45][random.below(4)]
        let date = String(format: "2026%02d%02d", month, day), time = String(format: "T%02d%02d00", hour, minute)
        var lines = ["BEGIN:VEVENT", "UID:e\(index)@agreement", "DTSTAMP:20260101T000000Z", "SUMMARY:Event \(index)"]
        let allDay = random.below(4) == 0
        // How an instance's start is spelled (an EXDATE's or RECURRENCE-ID's): as DTSTART is, shifted by whole days.
        var spell: (String, Int) -> String = { name, days in "\(name);VALUE=DATE:" + Self.shifted(date, days: days) }
        switch allDay ? 0 : 1 + random.below(3) {
        case 0:
            let next = Calendar(identifier: .gregorian).date(byAdding: .day, value: 1 + random.below(3),
                                                            to: DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: 2026, month: month, day: day).date!)!
            lines += ["DTSTART;VALUE=DATE:\(date)", "DTEND;VALUE=DATE:" + Self.day(of: next)]
        case 1:
            lines += ["DTSTART:\(date)\(time)Z", "DURATION:PT\(1 + random.below(3))H"]
            spell = { name, days in "\(name):" + Self.shifted(date, days: days) + time + "Z" }
        default:
            let zone = zones[random.below(zones.count)]
            lines += ["DTSTART;TZID=\(zone):\(date)\(time)", "DURATION:PT\(30 + 30 * random.below(4))M"]
            spell = { name, days in "\(name);TZID=\(zone):" + Self.shifted(date, days: days) + time }
        }
        var override: [String] = []
        if random.below(10) >= 3 {
            var parts: [String]
            switch random.below(4) {
            case 0: parts = ["FREQ=DAILY"]
            case 1:
                parts = ["FREQ=WEEKLY"]
                if random.below(2) == 0 {
                    let picked = Set((0..<(1 + random.below(3))).map { _ in days[random.below(7)] })
                    parts.append("BYDAY=" + days.filter(picked.contains).joined(separator: ","))
                }
            case 2:
                parts = ["FREQ=MONTHLY"]
                switch random.below(3) {
                case 0: parts.append("BYMONTHDAY=\([1, 10, 15, 28, -1][random.below(5)])")
                case 1: parts.append("BYDAY=\(["1", "2", "-1"][random.below(3)])\(days[random.below(7)])")
                default: break
                }
            default: parts = ["FREQ=YEARLY"]
            }
            let interval = random.below(3) == 0 ? 2 + random.below(2) : 1
            if interval > 1 { parts.append("INTERVAL=\(interval)") }
            let bounded = random.below(3)
            switch bounded {
            case 0: parts.append("COUNT=\(5 + random.below(30))")
            case 1: parts.append("UNTIL=" + (allDay ? "2027\(String(format: "%02d", 1 + random.below(12)))15" : "2027\(String(format: "%02d", 1 + random.below(12)))15T000000Z"))
            default: break
            }
            lines.append("RRULE:" + parts.joined(separator: ";"))
            // Exceptions and moved instances (issue #62), where the generator knows an instance: the first always
            // is one; a daily or plain weekly rule's k-th is k steps on (no UNTIL, which might end before it).
            let step = parts == ["FREQ=DAILY"] || (parts.count == 1 && parts[0] == "FREQ=WEEKLY") ? (parts[0] == "FREQ=DAILY" ? 1 : 7) * interval : 0
            if random.below(4) == 0 { lines.append(spell("EXDATE", 0)) }
            if step > 0, bounded != 1, random.below(3) == 0 {
                let instance = 1 + random.below(3)
                let moved = allDay ? spell("DTSTART", instance * step + 1) : spell("DTSTART", instance * step).replacingOccurrences(of: time, with: "T235900")
                override = ["BEGIN:VEVENT", "UID:e\(index)@agreement", "DTSTAMP:20260101T000000Z", "SUMMARY:Event \(index), moved",
                            spell("RECURRENCE-ID", instance * step), moved, allDay ? "DURATION:P1D" : "DURATION:PT2H", "END:VEVENT"]
            }
        }
        return (lines + ["END:VEVENT"] + override).joined(separator: "\r\n")
    }

    /// A `YYYYMMDD` date `days` later.
    static func shifted(_ date: String, days: Int) -> String {
        let calendar = Calendar(identifier: .gregorian)
        let start = DateComponents(calendar: calendar, timeZone: .gmt, year: Int(date.prefix(4))!, month: Int(date.dropFirst(4).prefix(2))!,
                                   day: Int(date.suffix(2))!).date!
        return day(of: calendar.date(byAdding: .day, value: days, to: start)!)
    }

    static func day(of date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: date)
        return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
    }

    static func stamp(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\n\(body)\r\nEND:VCALENDAR\r\n"
    }

    @Test func everyWindowMatchesTheEventsRecurringICalEventsFinds() async throws {
        var random = SplitMix(seed: 62_001)
        let events = (0..<150).map { Self.event($0, &random) }
        let origin = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: 2026, month: 1, day: 1).date!
        let windows: [(start: Date, end: Date)] = (0..<100).map { _ in
            let start = origin.addingTimeInterval(Double(random.below(2 * 365 * 24)) * 3600)
            return (start, start.addingTimeInterval(Double([1, 6, 24, 72, 168, 336][random.below(6)]) * 3600))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("time-range-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Self.calendar(events.joined(separator: "\r\n")).utf8).write(to: file)
        let reference = try await PythonChecker.run(["matches": file.path, "windows": windows.map { [Self.stamp($0.start), Self.stamp($0.end)] }])
        let expected = try #require(reference["windows"] as? [[String]])

        // Over loopback: app passwords are taken over plain HTTP from this machine only.
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await CalDAVRequests.annasNewCalendar(client, parts.dependencies.parts.service, named: "agreement")
            for (index, event) in events.enumerated() {
                let put = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/agreement/e\(index).ics", anna, Self.calendar(event))
                try #require(put.status == 201, "event \(index): \(put.body)\n\(event)")
            }
            var disagreements: [String] = []
            for (number, window) in windows.enumerated() {
                let query = """
                    <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>
                    <c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
                    <c:time-range start="\(Self.stamp(window.start))" end="\(Self.stamp(window.end))"/>
                    </c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                    """
                let answer = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/agreement/", anna, query)
                try #require(answer.status == 207, "window \(number): \(answer.body)")
                let found = answer.body.matches(of: /agreement\/e([0-9]+)\.ics<\/d:href>/).map { "e\($0.1)@agreement" }.sorted()
                let theirs = expected[number].sorted()
                if found != theirs {
                    let missing = Set(theirs).subtracting(found).sorted(), extra = Set(found).subtracting(theirs).sorted()
                    let shown = (missing + extra).compactMap { uid in Int(uid.dropFirst().prefix { $0.isNumber }).map { events[$0] } }
                    disagreements.append("window \(number) \(Self.stamp(window.start))–\(Self.stamp(window.end)): missing \(missing), extra \(extra)\n"
                                         + shown.joined(separator: "\n"))
                }
            }
            let shown = disagreements.prefix(5).joined(separator: "\n\n")
            #expect(disagreements.isEmpty, "\(disagreements.count) of \(windows.count) windows disagree with recurring-ical-events:\n\(shown)")
            let matched = expected.reduce(0) { $0 + $1.count }
            #expect(matched > windows.count, "the generated windows should find events: \(matched) matches")
            print("time-range agreement: \(windows.count - disagreements.count) of \(windows.count) windows agree over \(events.count) events (\(matched) matches)")
        }
    }
}

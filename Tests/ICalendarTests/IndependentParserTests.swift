import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// tminus's expansion and writer, checked against PyPI's icalendar and
/// recurring-ical-events on fixtures written for the hard cases.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct IndependentParserTests {
    static let from = "2026-01-01T00:00:00", to = "2028-01-01T00:00:00", tz = "Europe/Budapest"

    /// Python adds DURATION in wall-clock time (datetime arithmetic); RFC 5545 says
    /// PT1H is exact. Across the New York fold the ends differ by an hour, by design.
    static let exactDurationAcrossFold = "dst-ny-fold"

    static func tminusRows(_ url: URL, from: String = from, to: String = to, withStatus: Bool = false) throws -> [[String: String]] {
        let calendar = try ICalendarParser.parse(contentsOf: url).calendar
        let zone = try #require(Zone.named(tz))
        let bound = { (text: String) in
            let n = text.split { !$0.isNumber }.compactMap { Int($0) }   // YYYY-MM-DDTHH:MM:SS
            return zone.instant(of: LocalDateTime(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n[5]))
        }
        let window = DateInterval(start: bound(from), end: bound(to))
        let occurrences = OccurrenceExpander(calendar: calendar, floatingZone: zone, cancelled: withStatus ? .include : .skip)
            .occurrences(of: calendar.events, in: window, limit: 100_000).occurrences
        return occurrences.map { occurrence in
            let stamp = { (value: DateTimeValue, instant: Date) in
                value.isAllDay ? value.civilDate.iso : Zone.utc.local(of: instant).iso + "Z"
            }
            var row = ["uid": occurrence.uid, "summary": occurrence.summary ?? "",
                       "start": stamp(occurrence.start, occurrence.startInstant),
                       "end": occurrence.end.map { stamp($0, occurrence.endInstant!) } ?? "null",
                       "allDay": occurrence.isAllDay ? "true" : "false"]
            if withStatus { row["status"] = occurrence.status?.rawValue.lowercased() ?? "null" }
            return row
        }.sorted { ($0["start"]!, $0["uid"]!, $0["summary"]!) < ($1["start"]!, $1["uid"]!, $1["summary"]!) }
    }

    /// recurring-ical-events' rows per path; a path it cannot read maps to nil.
    static func pythonRows(_ paths: [String], from: String = from, to: String = to,
                           withStatus: Bool = false) async throws -> [String: [[String: String]]?] {
        let answer = try await PythonChecker.run(["expand": paths, "from": from, "to": to, "tz": tz, "status": withStatus])
        return answer.mapValues { value in
            (value as? [[String: Any]]).map { rows in
                rows.map { row in
                    row.mapValues { field -> String in
                        if let bool = field as? Bool { return bool ? "true" : "false" }
                        if field is NSNull { return "null" }
                        return "\(field)"
                    }
                }
            }
        }
    }

    static func compare(_ ours: [[String: String]], _ theirs: [[String: String]], _ label: String) {
        #expect(ours.count == theirs.count, "\(label): tminus has \(ours.count) occurrences, python \(theirs.count)")
        for (mine, other) in zip(ours, theirs) {
            if mine["uid"] == exactDurationAcrossFold {
                #expect(mine["start"] == other["start"], "\(label): \(mine) vs \(other)")
            } else {
                #expect(mine == other, "\(label): tminus \(mine) vs python \(other)")
            }
        }
    }

    @Test(arguments: Fixtures.interop)
    func expansionMatchesRecurringIcalEvents(_ url: URL) async throws {
        let theirs = try #require(try await Self.pythonRows([url.path])[url.path] ?? nil)
        Self.compare(try Self.tminusRows(url), theirs, url.lastPathComponent)
    }

    /// The DST fold case on its own: the end is exactly one hour after the start.
    @Test func durationIsExactAcrossTheFold() throws {
        let rows = try Self.tminusRows(Fixtures.url("interop/dst.ics")).filter { $0["uid"] == Self.exactDurationAcrossFold }
        let fold = try #require(rows.first { $0["start"] == "2026-11-01T05:30:00Z" })
        #expect(fold["end"] == "2026-11-01T06:30:00Z")
    }

    /// What tminus writes parses cleanly in python, and python expands it to the
    /// same occurrences as the original: the generated VTIMEZONEs and Olson renames are right.
    @Test(arguments: Fixtures.interop)
    func writtenCalendarParsesAndExpandsTheSameInPython(_ url: URL) async throws {
        let parsed = try ICalendarParser.parse(contentsOf: url).calendar
        let written = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-written-\(UUID().uuidString)-\(url.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: written) }
        try Data(CalendarWriter().bytes(parsed)).write(to: written)

        let check = try await PythonChecker.run(["parse": [written.path]])
        let verdict = try #require(check[written.path] as? [String: Any])
        #expect(verdict["ok"] as? Bool == true, "python icalendar rejects the written file: \(verdict)")

        let rows = try await Self.pythonRows([url.path, written.path])
        Self.compare(try #require(rows[written.path] ?? nil), try #require(rows[url.path] ?? nil), "written \(url.lastPathComponent)")
        Self.compare(try Self.tminusRows(written), try Self.tminusRows(url), "tminus re-read \(url.lastPathComponent)")
    }
}

import Foundation
import Testing
@testable import ICalendar

/// Inputs shaped to make the parser or the zone registry do quadratic or
/// unbounded work. Each was measured slow before its fix; none is timed here
/// (the machines are shared), but each would take minutes if the fix were lost.
struct HostileShapeTests {
    /// 40,000 `BEGIN:!` then 40,000 unmatched `END:Q` took 8.8 s to validate:
    /// invalid names were pushed without a depth check, and each END searched
    /// the whole stack.
    @Test func unmatchedInvalidNestingIsRefusedAtTheDepthLimit() throws {
        let count = 40_000
        let text = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:!\r\n", count: count) + String(repeating: "END:Q\r\n", count: count) + "END:VCALENDAR\r\n"
        #expect(throws: ICalendarError.self) { try ICalendarParser.parse(text) }
        do { _ = try ICalendarParser.parse(text) } catch {
            #expect("\(error)".contains("nested deeper than \(ParseOptions().maxDepth)"))
        }
    }

    /// A problem on every line yields a capped list of diagnostics, not a million.
    @Test func diagnosticsAreCapped() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\n"
        text += String(repeating: "END:NOTHING\r\n", count: 20_000)
        text += "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = try ICalendarParser.parse(text)
        #expect(result.diagnostics.count == ParseOptions.maxDiagnostics + 1)
        #expect(result.diagnostics.last?.message.contains("not listed") == true)
    }

    /// `a/a/a/…` tried every suffix of the name: N slashes cost N² (32 KB took 11 s).
    @Test func zoneNameCandidatesStayFew() {
        let name = String(repeating: "a/", count: 16_000) + "Europe/Berlin"
        #expect(TimeZoneRegistry.candidates(for: name).count <= 4)
        #expect(TimeZoneRegistry.shared.zone(named: name) == nil, "too long to be a zone name")
        #expect(TimeZoneRegistry.shared.zone(named: "Vendor/Prefix/Europe/Berlin")?.identifier == "Europe/Berlin")
    }

    /// Unknown names were cached forever: 60,000 random names kept 30 MB.
    @Test func unknownZoneNamesAreRememberedWithinABound() {
        for index in 0..<(TimeZoneRegistry.maxUnknown * 3) {
            _ = TimeZoneRegistry.shared.zone(named: "Nowhere/Place\(index)-\(UUID().uuidString)")
        }
        #expect(TimeZoneRegistry.shared.unknownCount <= TimeZoneRegistry.maxUnknown)
        #expect(TimeZoneRegistry.shared.zone(named: "Asia/Tokyo") != nil, "known zones still resolve")
    }
}

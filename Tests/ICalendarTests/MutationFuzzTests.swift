import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// Seeded mutations of tminus's own fixtures through parse → expand → write.
/// The hostile corpus covers libical's history; this covers tminus's own code
/// paths (repairs, zone math, writer) with inputs nobody wrote by hand.
struct MutationFuzzTests {
    static let tokens = ["FREQ=SECONDLY", "INTERVAL=0", "INTERVAL=99999", "COUNT=-1", "BYSETPOS=-400", "BYMONTHDAY=-31",
                         "BYWEEKNO=53", "BYDAY=-5FR", "UNTIL=19000101", ";TZID=Mars/Base", ";VALUE=PERIOD", "99991231T235959Z",
                         "00000000", "P99999999W", "-PT1S", "\u{0}", "\u{FEFF}", "🎂", "\r\n ", ":", ";", ",", "\\",
                         "BEGIN:VEVENT", "END:VEVENT", "BEGIN:VALARM", "RECURRENCE-ID:20261109T170000", "RRULE:FREQ=YEARLY"]

    static func mutate(_ text: String, _ random: inout SplitMix) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<(1 + random.below(6)) {
            let at = random.below(scalars.count + 1)
            switch random.below(4) {
            case 0: scalars.insert(contentsOf: tokens[random.below(tokens.count)].unicodeScalars, at: at)
            case 1: if at < scalars.count { scalars.removeSubrange(at..<min(scalars.count, at + 1 + random.below(12))) }
            case 2: if at < scalars.count { scalars[at] = Unicode.Scalar(UInt8(random.below(128))) }
            default:
                let from = random.below(scalars.count)
                scalars.insert(contentsOf: scalars[from..<min(scalars.count, from + random.below(80))], at: at)
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    @Test func mutatedFixturesNeverCrash() throws {
        let seeds = try Fixtures.interop.map { try String(contentsOf: $0, encoding: .utf8) } + [try Fixtures.text("custom-zone.ics")]
        var random = SplitMix(seed: 20261122)
        let window = DateInterval(start: Fixtures.instant("20250101T000000Z"), end: Fixtures.instant("20300101T000000Z"))
        var outcomes: [String: Int] = [:]
        // TMINUS_FUZZ_ITERATIONS runs a longer campaign by hand; CI keeps it short.
        let iterations = ProcessInfo.processInfo.environment["TMINUS_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1500
        for _ in 0..<iterations {
            let input = Self.mutate(seeds[random.below(seeds.count)], &random)
            guard let result = try? ICalendarParser.parse(input) else { outcomes["rejected", default: 0] += 1; continue }
            let calendar = result.calendar
            let expansion = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 2_000)
            let written = CalendarWriter().bytes(calendar)
            #expect(CalendarWriter().bytes(calendar) == written)
            #expect((try? ICalendarParser.parse(data: written)) != nil, "tminus cannot read what it wrote")
            outcomes[expansion.truncated ? "truncated" : "expanded", default: 0] += 1
        }
        print("mutation fuzz: \(iterations) inputs, \(outcomes)")
    }

    @Test func hugeNumbersInRulesAreRejectedWithTheLimit() {
        #expect(throws: RecurrenceRule.Invalid(message: "INTERVAL=4000000000 is above 2147483647, the most tminus supports")) {
            try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=4000000000")
        }
        #expect((try? RecurrenceRule(parsing: "FREQ=SECONDLY;INTERVAL=90061")) != nil, "above libical's short, and valid (issue #61, 2)")
        #expect(throws: RecurrenceRule.Invalid.self) { try RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=9223372036854775807") }
        #expect(throws: RecurrenceRule.Invalid.self) { try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=99999999999999999999") }
    }
}

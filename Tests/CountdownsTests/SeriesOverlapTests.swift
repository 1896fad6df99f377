import Foundation
import ICalendar
import Testing
import TestSupport
@testable import Countdowns

/// Issue #62: a calendar app's time range is answered from what a compiled
/// series keeps where that settles it; it must say exactly what a fresh
/// expansion says, around the instant the series was prepared for (where the
/// kept occurrences answer) and far from it (where it expands), for every
/// kind of repeat, in zones with and without daylight saving.
struct SeriesOverlapTests {
    static let zones = ["UTC", "Europe/Berlin", "America/Sao_Paulo", "Asia/Kolkata"]
    static let rules = ["FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=SA,SU", "FREQ=WEEKLY;INTERVAL=2;COUNT=6",
                        "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=YEARLY", "FREQ=DAILY;COUNT=4", "FREQ=WEEKLY;UNTIL=20270301T000000Z"]

    @Test func theKeptOccurrencesAnswerAsAFreshExpansionDoes() throws {
        var random = SplitMix(seed: 62_002)
        let prepared = Make.instant("20261204T120000Z")
        var checked = 0, disagreements: [String] = []
        for index in 0..<300 {
            let zone = Self.zones[random.below(Self.zones.count)]
            let start = LocalDateTime(parsing: String(format: "2026%02d%02dT%02d%02d00", 1 + random.below(12), 1 + random.below(28), random.below(24),
                                                      [0, 30][random.below(2)]))!
            let allDay = random.below(4) == 0
            var countdown = Countdown(uid: "s\(index)", title: "Series \(index)",
                                      target: allDay ? .date(start.date) : zone == "UTC" ? .utc(start) : .zoned(start, tzid: zone))
            if random.below(5) > 0 {
                let rule = Self.rules[random.below(Self.rules.count)]
                countdown.repeatRule = Repeat(rrule: allDay ? rule.replacingOccurrences(of: "T000000Z", with: "") : rule, startingOn: start.date)
            }
            if !allDay, random.below(2) == 0 { countdown.duration = ICalDuration(parsing: ["PT1H", "PT30M", "P2D"][random.below(3)]) }
            let series = CountdownSeries(countdown, preparedAt: prepared, floatingZone: Zone.named("Europe/Berlin")!)
            for _ in 0..<20 {
                // Half the windows within weeks of the prepared instant, half anywhere in two years.
                let offset = random.below(2) == 0 ? Double(random.below(24 * 60)) - 72 : Double(random.below(2 * 365 * 24)) - 300 * 24
                let from = prepared.addingTimeInterval(offset * 3600)
                let window = DateInterval(start: from, end: from.addingTimeInterval(Double([1, 24, 168, 720][random.below(4)]) * 3600))
                let expected = !series.occurrences(in: window, zone: series.floatingZone, includingCancelled: false, limit: 1).isEmpty
                checked += 1
                if series.hasOccurrence(overlapping: window) != expected {
                    disagreements.append("\(countdown.uid) \(countdown.target) \(countdown.repeatRule) in \(window): expansion says \(expected)")
                }
            }
        }
        #expect(disagreements.count == 0, "\(disagreements.count) of \(checked) disagree:\n\(disagreements.prefix(5).joined(separator: "\n"))")
    }
}

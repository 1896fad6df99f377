import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// Issue #25: pages of a long list are cut from an order computed from each
/// countdown's placement alone. It must be the order `rows` gives, which
/// computes every remaining time in full.
struct ListOrderTests {
    static func countdowns() -> [Countdown] {
        var list: [Countdown] = [
            Make.allDay("19900510", repeat: .yearly, title: "Anna turns {n}"),
            Make.allDay("20261102", repeat: .rule("FREQ=WEEKLY;BYDAY=MO,TH"), title: "Gym"),
            Make.allDay("20250101", title: "Long past"),
            Make.allDay("20270301", title: "Spring"),
            Make.allDay("20270301", title: "Also spring"),
            Make.zoned("20261122T180000", "Asia/Tokyo", title: "Tonight in Tokyo"),
            Make.allDay("20261122", title: "Today"),
        ]
        var up = Make.allDay("20240101", title: "Since New Year 2024")
        up.uid = "up"
        up.direction = .up
        list.append(up)
        var cancelled = Make.allDay("20261201", title: "Cancelled")
        cancelled.uid = "cancelled"
        cancelled.status = .cancelled
        list.append(cancelled)
        return list.enumerated().map { index, countdown in
            var countdown = countdown
            countdown.uid = "c\(index)"
            return countdown
        }
    }

    @Test(arguments: [FeedSnapshot.Sort.remaining, .title], ["Europe/Berlin", "Pacific/Kiritimati"])
    func theOrderOfPlacementsIsTheOrderOfRows(sort: FeedSnapshot.Sort, zone: String) {
        let calculator = Make.calculator("20261122T090000", zone)
        let series = Self.countdowns().map {
            CountdownSeries($0, preparedAt: calculator.now, floatingZone: Zone.named("Europe/Berlin")!, maxOccurrences: 1_000)
        }
        let rows = FeedSnapshot.rows(series, calculator: calculator, sort: sort).map(\.0.uid)
        let order = FeedSnapshot.order(series, calculator: calculator, sort: sort).map { series[$0].countdown.uid }
        #expect(order == rows)
        #expect(Set(order).count == series.count)
    }
}

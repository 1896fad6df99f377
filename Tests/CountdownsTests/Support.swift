import Foundation
import ICalendar
@testable import Countdowns

/// Builders for test countdowns and instants.
enum Make {
    static func instant(_ text: String, in zoneName: String = "UTC") -> Date {
        let value = DateTimeValue(text: text.replacingOccurrences(of: "Z", with: ""), tzid: nil, valueType: nil)!
        return Zone.named(zoneName)!.instant(of: value.local)
    }

    static func date(_ text: String) -> DateTimeValue { .date(CivilDate(parsing: text)!) }

    static func allDay(_ date: String, repeat rule: Repeat = .none, title: String = "Target") -> Countdown {
        Countdown(uid: "test-\(date)", title: title, target: self.date(date), repeatRule: rule)
    }

    static func zoned(_ local: String, _ tzid: String, title: String = "Timed") -> Countdown {
        Countdown(uid: "test-\(local)", title: title, target: .zoned(LocalDateTime(parsing: local)!, tzid: tzid))
    }

    static func calculator(_ now: String, _ zone: String) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: instant(now, in: zone), zone: Zone.named(zone)!)
    }
}

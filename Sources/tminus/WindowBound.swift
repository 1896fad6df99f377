import Foundation
import ICalendar

/// Parses `--from` / `--to`: a date (midnight in the zone), a local date-time, or a UTC date-time.
enum WindowBound {
    static func parse(_ text: String, zone: Zone) -> Date? {
        let compact = text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        if let date = CivilDate(parsing: compact) { return zone.instant(of: LocalDateTime(date: date)) }
        guard let value = DateTimeValue(text: compact, tzid: nil, valueType: nil) else { return nil }
        switch value {
        case .utc(let local): return Zone.utc.instant(of: local)
        default: return zone.instant(of: value.local)
        }
    }
}

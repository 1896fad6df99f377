import Foundation
import ICalendar

/// One line per occurrence for people, in the viewer's zone.
enum OccurrenceText {
    static func line(_ occurrence: Occurrence, zone: Zone) -> String {
        let when: String
        if occurrence.isAllDay {
            let days = occurrence.end.map { $0.civilDate.daysSinceEpoch - occurrence.start.civilDate.daysSinceEpoch } ?? 1
            when = occurrence.start.civilDate.iso + (days > 1 ? " (\(days) days)" : "") + "  all day"
        } else {
            let start = zone.local(of: occurrence.startInstant)
            var text = start.date.iso + " " + hm(start)
            if let endInstant = occurrence.endInstant, endInstant > occurrence.startInstant {
                let end = zone.local(of: endInstant)
                text += "–" + (end.date == start.date ? hm(end) : end.date.iso + " " + hm(end))
            }
            when = text
        }
        let kind = (occurrence.componentName == "VTODO" ? "[task] " : "") + (occurrence.isCancelled ? "[cancelled] " : "")
        var moved = ""
        if occurrence.isOverride, let original = occurrence.recurrenceInstant, original != occurrence.startInstant {
            // An all-day instance is named by its day as written (Outlook writes local midnight in its own zone).
            let day = occurrence.isAllDay ? occurrence.recurrenceId?.civilDate ?? zone.local(of: original).date : zone.local(of: original).date
            moved = " (moved from \(day.iso))"
        }
        return "\(when)  \(kind)\(occurrence.summary ?? "(no title)")\(moved)"
    }

    private static func hm(_ time: LocalDateTime) -> String {
        String(format: "%02d:%02d", time.hour, time.minute)
    }
}

import Countdowns
import Foundation
import ICalendar

/// The documented JSON shape of `tminus occurrences --format json`.
enum OccurrenceJSON {
    struct Row: Encodable {
        var component: String
        var uid: String
        var summary: String
        var start: String
        var end: String?
        var allDay: Bool
        var recurrenceId: String?
        /// The STATUS of the instance, lower-cased ("cancelled", "tentative", …), or null.
        var status: String?

        enum CodingKeys: String, CodingKey { case component, uid, summary, start, end, allDay, recurrenceId, status }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(component, forKey: .component)
            try container.encode(uid, forKey: .uid)
            try container.encode(summary, forKey: .summary)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)            // null, not absent
            try container.encode(allDay, forKey: .allDay)
            try container.encode(recurrenceId, forKey: .recurrenceId)
            try container.encode(status, forKey: .status)
        }
    }

    static func render(_ occurrences: [Occurrence]) throws -> String {
        let rows = occurrences.map { occurrence in
            Row(component: occurrence.componentName, uid: occurrence.uid, summary: occurrence.summary ?? "",
                start: stamp(occurrence.start, instant: occurrence.startInstant),
                end: occurrence.end.map { stamp($0, instant: occurrence.endInstant!) },
                allDay: occurrence.isAllDay,
                recurrenceId: occurrence.recurrenceId.map { stamp($0, instant: occurrence.recurrenceInstant!) },
                status: occurrence.status?.rawValue.lowercased())
        }
        return String(decoding: try JSONEncoder.tminusPretty.encode(rows), as: UTF8.self)
    }

    static func stamp(_ value: DateTimeValue, instant: Date) -> String {
        UTCStamp.iso(value, at: instant)
    }
}

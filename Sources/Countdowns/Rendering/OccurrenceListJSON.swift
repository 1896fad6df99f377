import Foundation
import ICalendar

/// The documented JSON shape of `tminus occurrences --format json`: an array of
/// objects with `allDay`, `component`, `end`, `recurrenceId`, `start`, `status`,
/// `summary` and `uid`, pretty-printed with sorted keys.
///
/// `Row` with `JSONEncoder.tminusPretty` is the specification; `bytes(_:)` writes
/// the same bytes by hand, because a year of a 10,000-event calendar is 20,000
/// rows and Foundation's encoder took a fifth of the whole command's time.
/// `OccurrenceListJSONTests` holds the two byte for byte equal.
public enum OccurrenceListJSON {
    public struct Row: Encodable, Equatable {
        public var component: String
        public var uid: String
        public var summary: String
        public var start: String
        public var end: String?
        public var allDay: Bool
        public var recurrenceId: String?
        /// The STATUS of the instance, lower-cased ("cancelled", "tentative", …), or null.
        public var status: String?

        enum CodingKeys: String, CodingKey { case component, uid, summary, start, end, allDay, recurrenceId, status }

        public func encode(to encoder: any Encoder) throws {
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

        public init(_ occurrence: Occurrence) {
            component = occurrence.componentName
            uid = occurrence.uid
            summary = occurrence.summary ?? ""
            start = UTCStamp.iso(occurrence.start, at: occurrence.startInstant)
            end = occurrence.end.map { UTCStamp.iso($0, at: occurrence.endInstant!) }
            allDay = occurrence.isAllDay
            recurrenceId = occurrence.recurrenceId.map { UTCStamp.iso($0, at: occurrence.recurrenceInstant!) }
            status = occurrence.status?.rawValue.lowercased()
        }
    }

    /// The rows, as `JSONEncoder.tminusPretty` writes them.
    public static func bytes(_ occurrences: [Occurrence]) -> [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(16 + occurrences.count * 300)
        out.raw("[\n")
        for (index, occurrence) in occurrences.enumerated() {
            let row = Row(occurrence)
            out.raw(index == 0 ? "  {\n" : ",\n  {\n")
            out.raw("    \"allDay\" : "); out.bool(row.allDay)
            out.raw(",\n    \"component\" : "); out.string(row.component)
            out.raw(",\n    \"end\" : "); out.nullable(row.end)
            out.raw(",\n    \"recurrenceId\" : "); out.nullable(row.recurrenceId)
            out.raw(",\n    \"start\" : "); out.string(row.start)
            out.raw(",\n    \"status\" : "); out.nullable(row.status)
            out.raw(",\n    \"summary\" : "); out.string(row.summary)
            out.raw(",\n    \"uid\" : "); out.string(row.uid)
            out.raw("\n  }")
        }
        out.raw("\n]")   // "[\n\n]" when empty, as Foundation writes it
        return out.bytes
    }
}

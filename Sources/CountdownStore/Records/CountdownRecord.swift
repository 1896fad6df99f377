import Countdowns
import Foundation
import GRDB
import ICalendar

/// A `countdown` row. `content` is the countdown as iCalendar with volatile
/// fields (sequence, stamps, source) cleared; the columns are authoritative for those.
struct CountdownRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "countdown"
    var id: Int64?
    var feedId: Int64
    var sourceId: Int64?
    var uid: String
    var title: String
    var kind: String
    var status: String
    var startsOn: String
    var sequence: Int
    var createdAt: Date
    var lastModified: Date
    var content: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ countdown: Countdown, feedId: Int64, sourceId: Int64?, now: Date) {
        self.feedId = feedId
        self.sourceId = sourceId
        uid = countdown.uid
        title = countdown.title
        kind = countdown.kind.rawValue
        status = countdown.status.rawValue
        startsOn = countdown.target.civilDate.iso
        sequence = countdown.sequence
        createdAt = countdown.created ?? now
        lastModified = countdown.lastModified ?? now
        content = Self.content(of: countdown)
    }

    /// The canonical text two versions of a countdown are compared by.
    static func content(of countdown: Countdown) -> String {
        var canonical = countdown
        canonical.id = nil
        canonical.sequence = 0
        canonical.created = nil
        canonical.lastModified = nil
        canonical.source = nil
        var calendar = VCalendar.empty()
        calendar.timeZones = canonical.timeZoneDefinitions.map(VTimeZone.init(component:))
        for component in CountdownWriter.components(for: canonical, options: .init(includeAlarms: true)) {
            if component.name == VTodo.componentName { calendar.todos.append(VTodo(component: component)) }
            else { calendar.events.append(VEvent(component: component)) }
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    func countdown(source: String?) throws -> Countdown {
        let calendar = try ICalendarParser.parse(content, options: .trusted).calendar
        guard var countdown = CountdownReader.countdowns(in: calendar, source: source).countdowns.first else {
            throw StoreError.invalid("countdown \(id ?? 0) has unreadable content")
        }
        countdown.id = id
        countdown.sequence = sequence
        countdown.created = createdAt
        countdown.lastModified = lastModified
        countdown.source = source
        return countdown
    }
}

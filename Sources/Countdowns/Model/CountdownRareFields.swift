import Foundation
import ICalendar

/// The fields of a `Countdown` that most countdowns leave at their defaults:
/// a link, a duration instead of an end, RDATE/EXDATE and overrides, their own
/// time zones, a start of counting, colours and an image, alarms, a task's
/// priority and completion, repair warnings, sub-components tminus does not model.
///
/// Why apart: inline they were about 250 of a countdown's 552 bytes, in every
/// series a compiled feed holds (issue #41: memory by the countdown); out of
/// line (`CountdownRareStorage`) they cost one pointer, nil for most.
struct CountdownRareFields: Sendable, Hashable {
    var url: String?
    var duration: ICalDuration?
    var recurrenceDates: [RecurrenceDate] = []
    var exceptionDates: [DateTimeValue] = []
    var overrides: [Component] = []
    var timeZoneDefinitions: [Component] = []
    var countsFrom: CivilDate?
    var presentation: Presentation = .default
    var calendarColor: String?
    var alarms: [ICalDuration] = []
    var priority: Int?
    var percentComplete: Int?
    var completedAt: DateTimeValue?
    var warnings: [String] = []
    var extraComponents: [Component] = []

    static let defaults = CountdownRareFields()
}

/// `CountdownRareFields` out of line, copied on write. Nil stands for all
/// defaults, and a change back to them drops the box, so two countdowns that
/// are equal compare and hash equal however they were made.
struct CountdownRareStorage: Sendable, Hashable {
    /// Written only while uniquely referenced (`update`): a shared box is never changed.
    final class Box: @unchecked Sendable {
        var fields: CountdownRareFields
        init(_ fields: CountdownRareFields) { self.fields = fields }
    }

    private(set) var box: Box?

    init() {}

    var fields: CountdownRareFields { box?.fields ?? .defaults }

    mutating func update(_ change: (inout CountdownRareFields) -> Void) {
        guard let box else {
            var fields = CountdownRareFields.defaults
            change(&fields)
            if fields != .defaults { self.box = Box(fields) }
            return
        }
        if !isKnownUniquelyReferenced(&self.box) { self.box = Box(box.fields) }
        change(&self.box!.fields)
        if self.box!.fields == .defaults { self.box = nil }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.fields == rhs.fields }

    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

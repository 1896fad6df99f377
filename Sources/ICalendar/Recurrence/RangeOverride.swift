import Foundation

/// A `RECURRENCE-ID;RANGE=THISANDFUTURE` override (RFC 5545 §3.8.4.4). It
/// replaces its own instance like any override, and it also reshapes every
/// later instance of the series until the next such override: each one moves
/// by the same shift (its DTSTART minus its RECURRENCE-ID), lasts as long as
/// the override does, and takes the override's summary and status.
///
/// The shift is counted in days for all-day values and in wall-clock seconds
/// when both values are in one zone, so "from now on, an hour later" stays an
/// hour later across a DST change; otherwise it is an exact number of seconds.
struct RangeOverride {
    let recurrenceInstant: Date
    let component: Component
    private let shape: SeriesShape
    private let shift: Shift
    let status: Occurrence.Status?

    private enum Shift {
        case wall(seconds: Int64)
        case exact(seconds: TimeInterval)
    }

    init?(_ component: Component, resolver: ZoneResolver) {
        guard let idProperty = component.first("RECURRENCE-ID"),
              idProperty.parameter("RANGE")?.uppercased() == "THISANDFUTURE",
              let id = DateTimeValue(property: idProperty),
              let shape = SeriesShape(component, resolver: resolver), let start = shape.start else { return nil }
        recurrenceInstant = resolver.instant(of: id)
        self.component = component
        self.shape = shape
        status = Occurrence.Status(of: component)
        if id.isAllDay == start.isAllDay, id.isAllDay || resolver.zone(of: id) == resolver.zone(of: start) {
            shift = .wall(seconds: start.local.wallSeconds - id.local.wallSeconds)
        } else {
            shift = .exact(seconds: resolver.instant(of: start).timeIntervalSince(recurrenceInstant))
        }
    }

    /// How far instances may move, to widen the window they are expanded in.
    var reach: TimeInterval {
        switch shift {
        case .wall(let seconds): abs(TimeInterval(seconds)) + 86_400
        case .exact(let seconds): abs(seconds)
        }
    }

    /// The series instance that starts at `start` (its recurrence id), reshaped.
    func reshape(_ start: DateTimeValue, resolver: ZoneResolver) -> Occurrence {
        let moved: DateTimeValue
        switch shift {
        case .wall(let seconds):
            moved = start.with(local: LocalDateTime(wallSeconds: start.local.wallSeconds + seconds))
        case .exact(let seconds):
            let instant = resolver.instant(of: start).addingTimeInterval(seconds)
            moved = start.isAllDay ? .date(Zone.utc.local(of: instant).date) : .utc(Zone.utc.local(of: instant))
        }
        var occurrence = shape.occurrence(at: moved, recurring: false, resolver: resolver)
        occurrence.recurrenceId = start
        occurrence.recurrenceInstant = resolver.instant(of: start)
        occurrence.isOverride = true
        occurrence.status = status
        return occurrence
    }
}

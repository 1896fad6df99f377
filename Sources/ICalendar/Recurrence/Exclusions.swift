import Foundation

/// The instances EXDATE and EXRULE remove from a series, matched the way
/// calendar clients and recurring-ical-events match them, whatever value form
/// the exclusion was written in:
/// - a DATE-TIME (UTC, zoned in any TZID, floating) removes the instance that
///   starts at the same instant;
/// - a DATE removes every instance of a timed series that starts on that date,
///   read in the instance's own zone;
/// - on an all-day series any value removes the instance on the date it is
///   written with: Outlook writes `EXDATE:20260611T000000Z` for all-day series.
struct Exclusions {
    private var instants: Set<Date> = []
    private var dates: Set<CivilDate> = []

    var isEmpty: Bool { instants.isEmpty && dates.isEmpty }

    init(_ values: [DateTimeValue], seriesIsAllDay: Bool, resolver: ZoneResolver) {
        for value in values {
            if seriesIsAllDay || value.isAllDay {
                dates.insert(value.civilDate)
            } else {
                instants.insert(resolver.instant(of: value))
            }
        }
    }

    /// True when the instance starting at `start` (at `instant`) is removed.
    func excludes(_ start: DateTimeValue, at instant: Date) -> Bool {
        if start.isAllDay { return dates.contains(start.civilDate) }
        return instants.contains(instant) || (!dates.isEmpty && dates.contains(start.civilDate))
    }
}

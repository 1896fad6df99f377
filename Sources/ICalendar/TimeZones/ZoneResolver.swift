import Foundation

/// Answers "which zone does this TZID mean?" for one calendar: builtin zones by
/// Olson or Windows name first, then the calendar's own VTIMEZONEs. Floating
/// times are read in X-WR-TIMEZONE when the calendar sets it (Google does),
/// otherwise in the zone the caller passes.
public struct ZoneResolver: Sendable {
    public let floatingZone: Zone
    private let embedded: [String: Zone]
    private let registry: TimeZoneRegistry

    public init(calendar: VCalendar, floatingZone: Zone = .utc, registry: TimeZoneRegistry = .shared) {
        self.registry = registry
        var embedded: [String: Zone] = [:]
        for timeZone in calendar.timeZones {
            guard let tzid = timeZone.tzid, registry.zone(named: tzid) == nil, embedded[tzid] == nil else { continue }
            if let zone = registry.zone(fromVTimeZoneText: CalendarWriter.text(of: ObservanceRepair.repaired(timeZone.component)), tzid: tzid) {
                embedded[tzid] = zone
            }
        }
        self.embedded = embedded
        self.floatingZone = calendar.defaultTimeZone.flatMap { registry.zone(named: $0) } ?? floatingZone
    }

    public func zone(for tzid: String) -> Zone? {
        registry.zone(named: tzid) ?? embedded[tzid]
    }

    /// The zone a value's wall time is read in; an unknown TZID falls back to the
    /// floating zone (the parser has already reported it).
    public func zone(of value: DateTimeValue) -> Zone {
        switch value {
        case .utc: .utc
        case .zoned(_, let tzid): zone(for: tzid) ?? floatingZone
        case .date, .floating: floatingZone
        }
    }

    /// The instant a value denotes; a date means its midnight in the floating zone.
    public func instant(of value: DateTimeValue) -> Date {
        zone(of: value).instant(of: value.local)
    }
}

import Foundation

/// Writes calendars that meet DESIGN.md's interoperability checklist: CRLF,
/// 75-octet folding, no control characters, no X-LIC-ERROR, and exactly one
/// compact VTIMEZONE, under its plain Olson name, for every TZID used.
/// The same value always gives the same bytes.
public struct CalendarWriter: Sendable {
    public enum TimeZonePolicy: Sendable {
        /// Write the calendar's own VTIMEZONEs as they are.
        case keep
        /// Replace VTIMEZONEs by compact ones built from the zone database,
        /// rename TZIDs to Olson names, and drop unused definitions.
        case generate
    }

    public var timeZones: TimeZonePolicy

    public init(timeZones: TimeZonePolicy = .generate) {
        self.timeZones = timeZones
    }

    public func write(_ calendar: VCalendar) -> String {
        String(decoding: bytes(calendar), as: UTF8.self)
    }

    public func bytes(_ calendar: VCalendar) -> [UInt8] {
        var calendar = calendar
        if timeZones == .generate { calendar = TimeZoneNormalizer().normalize(calendar) }
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(calendar.component, into: &output)
        return output
    }

    func write(_ component: Component, into output: inout [UInt8]) {
        LineFolder.fold("BEGIN:" + component.name, into: &output)
        for property in component.properties where !property.name.hasPrefix("X-LIC-ERROR") {
            LineFolder.fold(ContentLineWriter.line(property), into: &output)
        }
        for child in component.components { write(child, into: &output) }
        LineFolder.fold("END:" + component.name, into: &output)
    }

    /// One component on its own, e.g. a VTIMEZONE to hand to libical.
    public static func text(of component: Component) -> String {
        var output: [UInt8] = []
        CalendarWriter(timeZones: .keep).write(component, into: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

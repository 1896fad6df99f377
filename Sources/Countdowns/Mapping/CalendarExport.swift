import Foundation
import ICalendar

/// A feed's countdowns as one exported VCALENDAR, with the calendar header every
/// client reads: NAME/X-WR-CALNAME, DESCRIPTION/X-WR-CALDESC, COLOR/X-APPLE-CALENDAR-COLOR,
/// REFRESH-INTERVAL/X-PUBLISHED-TTL.
public enum CalendarExport {
    /// `otherCalendarDates`: how repeats in another calendar (RSCALE) are
    /// spelled out for clients that ignore RSCALE (nil: the rule alone).
    public static func calendar(feed: Feed, countdowns: [Countdown], imageURL: (@Sendable (String) -> String?)? = nil,
                                otherCalendarDates: OtherCalendarDates? = nil) -> VCalendar {
        var calendar = header(for: feed, name: feed.name, description: feed.description)
        var header = calendar.properties
        for (name, color) in feed.categoryColors.sorted(by: { $0.key < $1.key }) {
            header.append(Property(name: TMinusProperty.category, parameters: [Parameter(TMinusProperty.colorParameter, color)],
                                   value: TextEscaping.escape(name)))
        }
        calendar.properties = header
        let options = CountdownWriter.Options(includeAlarms: feed.includeAlarms, imageURL: imageURL, otherCalendarDates: otherCalendarDates)
        for countdown in countdowns.sorted(by: { $0.uid < $1.uid }) {
            for zone in countdown.timeZoneDefinitions where !calendar.timeZones.contains(where: { $0.component == zone }) {
                calendar.timeZones.append(VTimeZone(component: zone))
            }
            for component in CountdownWriter.components(for: countdown, options: options) {
                if component.name == VTodo.componentName { calendar.todos.append(VTodo(component: component)) }
                else { calendar.events.append(VEvent(component: component)) }
            }
        }
        return calendar
    }

    /// The calendar header every client reads, for a feed (or its countdown calendar).
    public static func header(for feed: Feed, name: String, description: String?) -> VCalendar {
        var calendar = VCalendar.empty()
        var header = calendar.properties
        header.append(Property(name: "METHOD", value: "PUBLISH"))
        header.append(Property.text("NAME", name))
        header.append(Property.text("X-WR-CALNAME", name))
        if let description {
            header.append(Property.text("DESCRIPTION", description))
            header.append(Property.text("X-WR-CALDESC", description))
        }
        if let color = feed.color {
            if let cssName = CSSColor.nearestName(toHex: color) { header.append(Property.text("COLOR", cssName)) }
            header.append(Property(name: "X-APPLE-CALENDAR-COLOR", value: color))
        }
        header.append(Property(name: "REFRESH-INTERVAL", parameters: [Parameter("VALUE", "DURATION")], value: feed.refreshInterval.description))
        header.append(Property(name: "X-PUBLISHED-TTL", value: feed.refreshInterval.description))
        header.append(Property(name: "X-WR-TIMEZONE", value: feed.timeZone))
        calendar.properties = header
        return calendar
    }

    /// Category colours a calendar declares (tminus's own exports carry them).
    public static func categoryColors(in calendar: VCalendar) -> [String: String] {
        var colors: [String: String] = [:]
        for property in calendar.properties where property.name == TMinusProperty.category {
            if let color = property.parameter(TMinusProperty.colorParameter).flatMap(Presentation.normalizeHex) {
                colors[property.text] = color
            }
        }
        return colors
    }
}

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
        var calendar = VCalendar(properties: properties(of: feed))
        visit(feed: feed, countdowns: countdowns, imageURL: imageURL, otherCalendarDates: otherCalendarDates, timeZone: { zone in
            if !calendar.timeZones.contains(where: { $0.component == zone }) { calendar.timeZones.append(VTimeZone(component: zone)) }
        }, component: { component in
            if component.name == VTodo.componentName { calendar.todos.append(VTodo(component: component)) }
            else { calendar.events.append(VEvent(component: component)) }
        })
        return calendar
    }

    /// The same calendar as written bytes (`CalendarWriter().bytes(calendar(…))`),
    /// written one countdown at a time: what the server compiles, so that a
    /// 100,000-countdown feed never holds a tree of its whole calendar.
    ///
    /// `order`: the indices of `countdowns` in the order to write them, when
    /// not their own `exportOrder`: a redacted view's countdowns (whose UIDs
    /// are hashes) are written in the order of the UIDs they had, as a store
    /// reads them (`Batches`).
    public static func bytes(feed: Feed, countdowns: [Countdown], order: [Int]? = nil, imageURL: (@Sendable (String) -> String?)? = nil,
                             otherCalendarDates: OtherCalendarDates? = nil) -> [UInt8] {
        var writer = CalendarStreamWriter(properties: properties(of: feed))
        let options = CountdownWriter.Options(includeAlarms: feed.includeAlarms, imageURL: imageURL, otherCalendarDates: otherCalendarDates)
        for index in order ?? Self.order(of: countdowns) {
            visit(countdowns[index], options: options, timeZone: { writer.addTimeZone($0) }, component: { writer.add($0) })
        }
        return writer.finish()
    }

    /// The indices of `countdowns` in `exportOrder`. Indices sorted, not the
    /// countdowns: 100,000 copies of a large struct were 50 MB for a moment.
    public static func order(of countdowns: [Countdown]) -> [Int] {
        countdowns.indices.sorted { exportOrder(countdowns[$0], countdowns[$1]) }
    }

    /// One countdown as a CalDAV object (RFC 4791 §4.1): VERSION and PRODID,
    /// the time zones it uses and its components, and no METHOD. Repeats in
    /// another calendar are spelled out as `otherCalendarDates` says, as in a feed.
    public static func object(feed: Feed, countdown: Countdown, otherCalendarDates: OtherCalendarDates,
                              imageURL: (@Sendable (String) -> String?)? = nil) -> [UInt8] {
        var writer = CalendarStreamWriter(properties: VCalendar.empty().properties)
        visit(feed: asObjects(feed), countdowns: [countdown], imageURL: imageURL, otherCalendarDates: otherCalendarDates,
              timeZone: { writer.addTimeZone($0) }, component: { writer.add($0) })
        return writer.finish()
    }

    /// The feed as its CalDAV objects are written: each object is what a calendar app
    /// wrote, so its alarms are kept whatever the feed's subscribers get (`includeAlarms`
    /// is for feeds): a phone's event read back without the alarm it was given.
    public static func asObjects(_ feed: Feed) -> Feed {
        var feed = feed
        feed.includeAlarms = true
        return feed
    }

    /// A VCALENDAR holding the VTIMEZONE of the feed's zone: CalDAV's
    /// `calendar-timezone`, the zone a client assumes for floating times.
    public static func timeZoneCalendar(of feed: Feed) -> String {
        var calendar = VCalendar.empty()
        if let zone = TimeZoneRegistry.shared.compactVTimeZone(named: feed.zone.identifier, fromYear: 1970) {
            calendar.timeZones = [VTimeZone(component: zone)]
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    /// The calendar's own properties: the header, and the category colours.
    private static func properties(of feed: Feed) -> [Property] {
        var header = header(for: feed, name: feed.name, description: feed.description).properties
        for (name, color) in feed.categoryColors.sorted(by: { $0.key < $1.key }) {
            header.append(Property(name: TMinusProperty.category, parameters: [Parameter(TMinusProperty.colorParameter, color)],
                                   value: TextEscaping.escape(name)))
        }
        return header
    }

    /// Each countdown's time zone definitions and components, in the order
    /// the calendar holds them (`exportOrder`).
    private static func visit(feed: Feed, countdowns: [Countdown], imageURL: (@Sendable (String) -> String?)?, otherCalendarDates: OtherCalendarDates?,
                              timeZone: (Component) -> Void, component: (Component) -> Void) {
        let options = CountdownWriter.Options(includeAlarms: feed.includeAlarms, imageURL: imageURL, otherCalendarDates: otherCalendarDates)
        for index in order(of: countdowns) {
            visit(countdowns[index], options: options, timeZone: timeZone, component: component)
        }
    }

    private static func visit(_ countdown: Countdown, options: CountdownWriter.Options, timeZone: (Component) -> Void, component: (Component) -> Void) {
        countdown.timeZoneDefinitions.forEach(timeZone)
        CountdownWriter.components(for: countdown, options: options).forEach(component)
    }

    /// The order an export holds countdowns in: by UID, compared as bytes, as
    /// every store orders text, so that an export written from the store's
    /// rows a batch at a time (`Batches`) is the compiled one byte for byte.
    public static func exportOrder(_ a: Countdown, _ b: Countdown) -> Bool {
        a.uid.utf8.lexicographicallyPrecedes(b.uid.utf8)
    }

    /// A feed's export written a batch of countdowns at a time, each batch
    /// after the last in `exportOrder` of the UIDs they had before any
    /// redaction (a store reads them so): the same bytes as
    /// `bytes(feed:countdowns:order:…)`, without holding every countdown. How a
    /// feed too large to compile answers `.ics` (issue #41).
    public struct Batches {
        private var writer: CalendarStreamWriter
        private let options: CountdownWriter.Options

        public init(feed: Feed, imageURL: (@Sendable (String) -> String?)? = nil, otherCalendarDates: OtherCalendarDates? = nil) {
            writer = CalendarStreamWriter(properties: CalendarExport.properties(of: feed))
            options = CountdownWriter.Options(includeAlarms: feed.includeAlarms, imageURL: imageURL, otherCalendarDates: otherCalendarDates)
        }

        /// The next countdowns (redacted for the view), each after every one added before in the order above.
        public mutating func add(_ countdowns: [Countdown]) {
            for countdown in countdowns {
                CalendarExport.visit(countdown, options: options, timeZone: { writer.addTimeZone($0) }, component: { writer.add($0) })
            }
        }

        /// The calendar's bytes in parts (`CalendarStreamWriter.takeParts()`), moved out: joined, they are the export.
        public mutating func takeParts() -> [[UInt8]] { writer.takeParts() }
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
        // A feed whose interval was not worked out (`RefreshHint`) is asked for every six hours.
        let refresh = (feed.refreshInterval ?? ICalDuration(seconds: 6 * 3_600)).description
        header.append(Property(name: "REFRESH-INTERVAL", parameters: [Parameter("VALUE", "DURATION")], value: refresh))
        header.append(Property(name: "X-PUBLISHED-TTL", value: refresh))
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

import Foundation
import ICalendar

/// Countdown → VEVENT / VTODO (plus its overrides). Property order is fixed and
/// DTSTAMP is the last change, never "now", so the same countdown always
/// renders to the same bytes.
public enum CountdownWriter {
    public struct Options: Sendable {
        /// VALARMs are opt-in per feed: clients often drop them from subscriptions anyway.
        public var includeAlarms: Bool
        /// How `tminus-image:` blob references become URLs a client can fetch (nil: kept as X-TMINUS-IMAGE).
        public var imageURL: (@Sendable (String) -> String?)?
        /// How repeats in another calendar (RSCALE) are spelled out for clients
        /// that ignore RSCALE; nil writes the rule alone.
        public var otherCalendarDates: OtherCalendarDates?

        public init(includeAlarms: Bool = true, imageURL: (@Sendable (String) -> String?)? = nil, otherCalendarDates: OtherCalendarDates? = nil) {
            self.includeAlarms = includeAlarms
            self.imageURL = imageURL
            self.otherCalendarDates = otherCalendarDates
        }
    }

    public static func components(for countdown: Countdown, options: Options = Options()) -> [Component] {
        [master(countdown, options: options)] + countdown.overrides.map { numbered($0, of: countdown) }
    }

    /// An overridden instance is one occurrence: its own SUMMARY (or the
    /// series' title) with that occurrence's number filled in.
    static func numbered(_ override: Component, of countdown: Countdown) -> Component {
        let title = override.first("SUMMARY")?.text ?? countdown.title
        guard Countdown.hasNumber(title) else { return override }
        let day = override.first("RECURRENCE-ID").flatMap(DateTimeValue.init(property:))?.civilDate
        let number = day.flatMap { countdown.repeatRule.occurrenceNumber(on: $0, from: countdown.target.civilDate) }
        var numbered = override
        numbered.set("SUMMARY", Property.text("SUMMARY", Countdown.render(title, occurrenceNumber: number)))
        return numbered
    }

    static func master(_ countdown: Countdown, options: Options) -> Component {
        let isTask = countdown.kind == .task
        var properties: [Property] = [Property.text("UID", countdown.uid)]
        let stamp = countdown.lastModified ?? countdown.created ?? Date(timeIntervalSince1970: 0)
        properties.append(utc("DTSTAMP", stamp))
        properties.append(Property(name: "SEQUENCE", value: String(countdown.sequence)))
        if let created = countdown.created { properties.append(utc("CREATED", created)) }
        if let modified = countdown.lastModified { properties.append(utc("LAST-MODIFIED", modified)) }
        // One SUMMARY stands for every occurrence of a rule: a number right for one would be wrong for the rest.
        let summary = Countdown.withoutNumber(countdown.title)
        properties.append(Property.text("SUMMARY", summary))
        if summary != countdown.title { properties.append(Property.text(TMinusProperty.title, countdown.title)) }
        if let notes = countdown.notes { properties.append(Property.text("DESCRIPTION", notes)) }
        if let location = countdown.location { properties.append(Property.text("LOCATION", location)) }
        if let url = countdown.url { properties.append(Property(name: "URL", value: url)) }

        let extraStart = countdown.extraProperties.first { $0.name == "DTSTART" }
        properties.append(countdown.target.property(isTask ? "DUE" : "DTSTART"))
        if isTask, let extraStart { properties.append(extraStart) }
        if !isTask {
            if let end = countdown.end { properties.append(end.property("DTEND")) }
            else if let duration = countdown.duration { properties.append(Property(name: "DURATION", value: duration.description)) }
        }
        if let rule = countdown.repeatRule.rrule(startingOn: countdown.target.civilDate) {
            if countdown.repeatRule.isRscale, let spelling = options.otherCalendarDates {
                properties += spelling.properties(for: countdown, rule: rule)
            } else {
                properties.append(Property(name: "RRULE", value: rule))
            }
        }
        properties += countdown.recurrenceDates.map { $0.property() }
        properties += countdown.exceptionDates.map { $0.property("EXDATE") }
        if !countdown.categories.isEmpty {
            properties.append(Property(name: "CATEGORIES", value: countdown.categories.map(TextEscaping.escape).joined(separator: ",")))
        }
        if let color = countdown.calendarColor ?? countdown.presentation.gradient.first.flatMap(CSSColor.nearestName) {
            properties.append(Property.text("COLOR", color))
        }
        if let image = countdown.presentation.image {
            if let url = image.hasPrefix("tminus-image:") ? options.imageURL?(image) : image {
                properties.append(Property(name: "IMAGE", parameters: [Parameter("VALUE", "URI"), Parameter("DISPLAY", "BADGE")], value: url))
            }
            if image.hasPrefix("tminus-image:") { properties.append(Property(name: TMinusProperty.image, value: image)) }
        }
        if let priority = countdown.priority { properties.append(Property(name: "PRIORITY", value: String(priority))) }
        switch countdown.status {
        case .cancelled: properties.append(Property(name: "STATUS", value: "CANCELLED"))
        case .completed: properties.append(Property(name: "STATUS", value: "COMPLETED"))
        case .active: break
        }
        if let percent = countdown.percentComplete { properties.append(Property(name: "PERCENT-COMPLETE", value: String(percent))) }
        if let completed = countdown.completedAt { properties.append(completed.property("COMPLETED")) }
        if countdown.direction != .down { properties.append(Property(name: TMinusProperty.direction, value: countdown.direction.rawValue)) }
        if countdown.displayUnit != .dynamic { properties.append(Property(name: TMinusProperty.unit, value: countdown.displayUnit.rawValue)) }
        if let from = countdown.countsFrom { properties.append(DateTimeValue.date(from).property(TMinusProperty.from)) }
        if !countdown.presentation.gradient.isEmpty {
            properties.append(Property(name: TMinusProperty.gradient, value: countdown.presentation.gradient.joined(separator: ",")))
        }
        if let text = countdown.presentation.textColor { properties.append(Property(name: TMinusProperty.textColor, value: text)) }
        properties += countdown.warnings.map { Property.text(TMinusProperty.warning, $0) }
        properties += countdown.extraProperties.filter { !(isTask && $0.name == "DTSTART") }

        var children: [Component] = []
        if options.includeAlarms {
            children += countdown.alarms.map { VAlarm.display(offset: $0, description: summary).component }
            children += countdown.extraComponents.filter { $0.name == VAlarm.componentName }
        }
        children += countdown.extraComponents.filter { $0.name != VAlarm.componentName }
        return Component(name: isTask ? VTodo.componentName : VEvent.componentName, properties: properties, components: children)
    }

    static func utc(_ name: String, _ date: Date) -> Property {
        Property(name: name, value: UTCStamp.basic(date))
    }
}

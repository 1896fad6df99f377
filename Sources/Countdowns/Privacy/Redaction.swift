import Foundation
import ICalendar

/// What one kind of link may see of a feed, applied to each countdown (and to
/// the feed's own header) once, when the feed is compiled. Every output of
/// that link (the exported calendar, the countdown calendar, JSON, page and
/// cards) is then rendered from the redacted countdowns only, so no output can
/// forget a field: what is not in the value cannot be served.
///
/// Properties are kept by allow-list, never removed by deny-list: a property
/// tminus does not know (an X-property, an ATTENDEE in an override) is gone
/// from every redacted view.
public enum Redaction: String, Sendable, Hashable, CaseIterable {
    /// A `full` token link: nothing is hidden.
    case none
    /// A public link: CLASS:PRIVATE and CONFIDENTIAL events become busy, the rest is shown.
    case classified
    /// A `titles` link: titles and times; classified events become busy.
    case titles
    /// A `busy` link: every event is "Busy" with its times.
    case busy

    /// The redaction of a link: through a token of `visibility`, or public (nil).
    public init(link visibility: Visibility?) {
        switch visibility {
        case nil: self = .classified
        case .full: self = .none
        case .titles: self = .titles
        case .busy: self = .busy
        }
    }

    /// What a busy event is called.
    public static let busyTitle = "Busy"

    /// `countdown` as this link may see it.
    public func apply(to countdown: Countdown) -> Countdown {
        switch self {
        case .none: return countdown
        case .classified: return countdown.isClassified ? Self.busy(countdown) : countdown
        case .titles: return countdown.isClassified ? Self.busy(countdown) : Self.titles(countdown)
        case .busy: return Self.busy(countdown)
        }
    }

    /// The feed's header as this link may see it: a busy link does not list the
    /// category names (they name what the events are).
    public func apply(to feed: Feed) -> Feed {
        guard self == .busy else { return feed }
        var redacted = feed
        redacted.categoryColors = [:]
        return redacted
    }

    /// True when nothing of `countdowns` would change: the link can share the
    /// unredacted compilation.
    public func leavesUnchanged(_ countdowns: [Countdown]) -> Bool {
        switch self {
        case .none: return true
        case .classified: return !countdowns.contains(where: \.isClassified)
        case .titles, .busy: return false
        }
    }

    // MARK: the two redacted forms

    private static func titles(_ countdown: Countdown) -> Countdown {
        var redacted = timesOnly(countdown, title: countdown.title)
        redacted.categories = countdown.categories
        redacted.calendarColor = countdown.calendarColor
        redacted.presentation = Presentation(gradient: countdown.presentation.gradient, textColor: countdown.presentation.textColor)
        redacted.alarms = countdown.alarms
        redacted.displayUnit = countdown.displayUnit
        redacted.direction = countdown.direction
        redacted.overrides = countdown.overrides.map { keep($0, Self.timeProperties.union(["SUMMARY", "CATEGORIES", "COLOR"])) }
        return redacted
    }

    private static func busy(_ countdown: Countdown) -> Countdown {
        var redacted = timesOnly(countdown, title: busyTitle)
        redacted.overrides = countdown.overrides.map { override in
            var kept = keep(override, Self.timeProperties)
            if override.properties.contains(where: { $0.name == "SUMMARY" }) {
                kept.properties.append(Property.text("SUMMARY", busyTitle))
            }
            return kept
        }
        return redacted
    }

    /// A new countdown with `countdown`'s times and repeats, and nothing else.
    /// Its UID is a hash of the original: stable, so a client keeps tracking
    /// the event across refreshes, but no longer the source's words (UIDs like
    /// "doctor-visit@example.com" are common).
    private static func timesOnly(_ countdown: Countdown, title: String) -> Countdown {
        var redacted = Countdown(uid: redactedUID(countdown.uid), title: title, target: countdown.target, repeatRule: countdown.repeatRule, kind: countdown.kind)
        redacted.id = countdown.id
        redacted.end = countdown.end
        redacted.duration = countdown.duration
        redacted.recurrenceDates = countdown.recurrenceDates
        redacted.exceptionDates = countdown.exceptionDates
        redacted.timeZoneDefinitions = countdown.timeZoneDefinitions
        redacted.countsFrom = countdown.countsFrom
        redacted.status = countdown.status
        redacted.percentComplete = countdown.percentComplete
        redacted.completedAt = countdown.completedAt
        redacted.sequence = countdown.sequence
        redacted.created = countdown.created
        redacted.lastModified = countdown.lastModified
        return redacted
    }

    /// What an override (a RECURRENCE-ID instance) keeps in every redacted view:
    /// which instance it is, when, and whether it still happens.
    static let timeProperties: Set<String> = [
        "UID", "RECURRENCE-ID", "DTSTAMP", "DTSTART", "DTEND", "DUE", "DURATION", "SEQUENCE", "STATUS", "TRANSP",
        "CREATED", "LAST-MODIFIED", "RRULE", "RDATE", "EXDATE",
    ]

    public static func redactedUID(_ uid: String) -> String { "redacted-\(StableHash.hex(uid))@tminus" }

    private static func keep(_ component: Component, _ names: Set<String>) -> Component {
        let properties = component.properties.compactMap { property -> Property? in
            let name = property.name.uppercased()
            guard names.contains(name) else { return nil }
            return name == "UID" ? Property.text("UID", redactedUID(property.text)) : property
        }
        return Component(name: component.name, properties: properties, line: component.line)
    }
}

extension Countdown {
    /// CLASS:PRIVATE or CLASS:CONFIDENTIAL (RFC 5545 3.8.1.3), on the event or
    /// on any of its moved instances: the owner marked it as not for everyone,
    /// so only `full` links show it as it is. A CLASS value tminus does not know
    /// counts as PRIVATE, as the RFC requires.
    public var isClassified: Bool {
        let properties = extraProperties + overrides.flatMap(\.properties)
        return properties.contains { property in
            property.name.uppercased() == "CLASS" && property.value.trimmingCharacters(in: .whitespaces).uppercased() != "PUBLIC"
        }
    }
}

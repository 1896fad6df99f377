/// A VCALENDAR: calendar-level properties plus its components, grouped by kind.
/// Writing emits time zones first, then events, todos and anything else.
public struct VCalendar: Sendable, Hashable {
    public var properties: [Property]
    public var timeZones: [VTimeZone]
    public var events: [VEvent]
    public var todos: [VTodo]
    /// VJOURNAL, VFREEBUSY, X-components …, kept untouched.
    public var otherComponents: [Component]

    public init(properties: [Property] = [], timeZones: [VTimeZone] = [], events: [VEvent] = [],
                todos: [VTodo] = [], otherComponents: [Component] = []) {
        self.properties = properties
        self.timeZones = timeZones
        self.events = events
        self.todos = todos
        self.otherComponents = otherComponents
    }

    /// Groups a parsed VCALENDAR component's children by kind.
    public init(component: Component) {
        self.init(properties: component.properties)
        for child in component.components {
            switch child.name {
            case VTimeZone.componentName: timeZones.append(VTimeZone(component: child))
            case VEvent.componentName: events.append(VEvent(component: child))
            case VTodo.componentName: todos.append(VTodo(component: child))
            default: otherComponents.append(child)
            }
        }
    }

    public var component: Component {
        Component(name: "VCALENDAR", properties: properties,
                  components: timeZones.map(\.component) + events.map(\.component) + todos.map(\.component) + otherComponents)
    }

    private var header: Component {
        get { Component(name: "VCALENDAR", properties: properties) }
        set { properties = newValue.properties }
    }

    public func property(_ name: String) -> Property? { header.first(name) }

    public mutating func set(_ name: String, _ property: Property?) { header.set(name, property) }

    /// RFC 7986 NAME, falling back to Apple/Google's X-WR-CALNAME.
    public var name: String? { (property("NAME") ?? property("X-WR-CALNAME"))?.text }
    /// Google's default zone for floating times (X-WR-TIMEZONE).
    public var defaultTimeZone: String? { property("X-WR-TIMEZONE")?.value.trimmingCharacters(in: " \t") }

    /// A fresh calendar with the properties RFC 5545 requires.
    public static func empty(prodid: String = "-//tminus//tminus//EN") -> VCalendar {
        VCalendar(properties: [Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: prodid),
                               Property(name: "CALSCALE", value: "GREGORIAN")])
    }
}

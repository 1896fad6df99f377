/// A VTIMEZONE definition, kept whole so that libical can read it.
public struct VTimeZone: ComponentView {
    public static let componentName = "VTIMEZONE"
    public var component: Component
    public init(component: Component) { self.component = component }

    /// The zone's name as TZID parameters spell it: the property is TEXT, so
    /// Exchange's `TZID:Kuala Lumpur\, Singapore` names the zone that events
    /// reference as `TZID="Kuala Lumpur, Singapore"` (the parser unquotes those).
    public var tzid: String? { component.first("TZID")?.text }
}

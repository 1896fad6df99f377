/// A VTIMEZONE definition, kept whole so that libical can read it.
public struct VTimeZone: ComponentView {
    public static let componentName = "VTIMEZONE"
    public var component: Component
    public init(component: Component) { self.component = component }

    public var tzid: String? { component.first("TZID")?.value }
}

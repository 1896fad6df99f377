/// A VALARM. Only relative triggers matter to countdowns; the rest round-trips raw.
public struct VAlarm: ComponentView {
    public static let componentName = "VALARM"
    public var component: Component
    public init(component: Component) { self.component = component }

    public var action: String? { get { text("ACTION")?.uppercased() } set { setText("ACTION", newValue) } }
    /// A trigger relative to the start (or end, with RELATED=END).
    public var triggerOffset: ICalDuration? {
        guard let trigger = component.first("TRIGGER"), trigger.parameter("VALUE")?.uppercased() != "DATE-TIME" else { return nil }
        return ICalDuration(parsing: trigger.value)
    }

    /// A display alarm `offset` before (negative) or after the start.
    public static func display(offset: ICalDuration, description: String) -> VAlarm {
        var alarm = VAlarm()
        alarm.component.properties = [
            Property(name: "ACTION", value: "DISPLAY"),
            Property(name: "TRIGGER", value: offset.description),
            Property.text("DESCRIPTION", description),
        ]
        return alarm
    }
}

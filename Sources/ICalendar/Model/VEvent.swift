/// A VEVENT: something that happens at a time, possibly repeating.
public struct VEvent: CalendarItem {
    public static let componentName = "VEVENT"
    public var component: Component
    public init(component: Component) { self.component = component }

    public var dtend: DateTimeValue? { get { dateTime("DTEND") } set { setDateTime("DTEND", newValue) } }
    public var duration: ICalDuration? {
        get { component.first("DURATION").flatMap { ICalDuration(parsing: $0.value) } }
        set { component.set("DURATION", newValue.map { Property(name: "DURATION", value: $0.description) }) }
    }
    public var isCancelled: Bool { status == "CANCELLED" }
}

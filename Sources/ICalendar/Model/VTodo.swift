/// A VTODO: a task, which tminus counts down to by its DUE date.
public struct VTodo: CalendarItem {
    public static let componentName = "VTODO"
    public var component: Component
    public init(component: Component) { self.component = component }

    public var due: DateTimeValue? { get { dateTime("DUE") } set { setDateTime("DUE", newValue) } }
    public var duration: ICalDuration? {
        get { component.first("DURATION").flatMap { ICalDuration(parsing: $0.value) } }
        set { component.set("DURATION", newValue.map { Property(name: "DURATION", value: $0.description) }) }
    }
    public var completed: DateTimeValue? { get { dateTime("COMPLETED") } set { setDateTime("COMPLETED", newValue) } }
    public var percentComplete: Int? { get { integer("PERCENT-COMPLETE") } set { setInteger("PERCENT-COMPLETE", newValue) } }
    public var isCompleted: Bool { status == "COMPLETED" || completed != nil || percentComplete == 100 }
}

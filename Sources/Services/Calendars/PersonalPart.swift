import ICalendar

/// What of a shared calendar's object is each person's own (issue #62): its
/// alarms (VALARM), whether it makes them busy (TRANSP), and the marks a
/// client leaves when its person dismisses or snoozes an alarm (Thunderbird's
/// `X-MOZ-LASTACK` and `X-MOZ-SNOOZE-TIME…`), per instance: the series and
/// each RECURRENCE-ID. Apple's calendar sharing keeps the same per-user data.
///
/// A person's write to a space's calendar is split into this part and the
/// rest. When the rest is the object as it is, only the part changed: it is
/// kept for that person (a viewer may do that much), and merged into that
/// person's reads alone. The shared object keeps the alarms everyone else sees.
public struct PersonalPart: Sendable, Equatable {
    /// One instance's own properties and alarms, as the person's client wrote them.
    public struct Instance: Sendable, Equatable {
        public var properties: [Property] = []
        public var alarms: [Component] = []
    }

    /// By instance: "" for the series, else its RECURRENCE-ID's value.
    public var instances: [String: Instance] = [:]

    public init() {}

    /// The properties that are each person's own.
    static func isPersonal(_ property: Property) -> Bool {
        property.name == "TRANSP" || property.name == "X-MOZ-LASTACK" || property.name.hasPrefix("X-MOZ-SNOOZE-TIME")
    }

    /// Properties that say when a copy was written, not what the object is: a
    /// client that adds an alarm may write a new DTSTAMP, and that is no edit.
    static let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED"]

    static func key(of component: Component) -> String {
        component.first("RECURRENCE-ID")?.value ?? ""
    }

    static func isItem(_ component: Component) -> Bool {
        component.name == VEvent.componentName || component.name == VTodo.componentName
    }

    /// The personal part of a calendar's events and tasks.
    public init(of calendar: VCalendar) {
        for item in calendar.component.components where Self.isItem(item) {
            instances[Self.key(of: item)] = Instance(properties: item.properties.filter(Self.isPersonal),
                                                     alarms: item.children(VAlarm.componentName))
        }
    }

    /// What is shared of a calendar's events and tasks, as compared: every
    /// property but the personal ones and the stamps, in a fixed order, and
    /// every subcomponent but alarms; instances by key.
    public static func shared(of calendar: VCalendar) -> [String: Component] {
        var shared: [String: Component] = [:]
        for item in calendar.component.components where isItem(item) {
            let properties = item.properties.filter { !isPersonal($0) && !stamps.contains($0.name) }
                .sorted { ($0.name, $0.value, "\($0.parameters)") < ($1.name, $1.value, "\($1.parameters)") }
            shared[key(of: item)] = Component(name: item.name, properties: properties,
                                              components: item.components.filter { $0.name != VAlarm.componentName })
        }
        return shared
    }

    /// `calendar` with each instance this part has given its properties and
    /// alarms instead of the ones there; instances it does not know (added
    /// since the person wrote theirs) keep what everyone sees.
    public func merged(into calendar: VCalendar) -> VCalendar {
        var root = calendar.component
        for index in root.components.indices where Self.isItem(root.components[index]) {
            var item = root.components[index]
            guard let own = instances[Self.key(of: item)] else { continue }
            item.properties = item.properties.filter { !Self.isPersonal($0) } + own.properties
            item.components = item.components.filter { $0.name != VAlarm.componentName } + own.alarms
            root.components[index] = item
        }
        return VCalendar(component: root)
    }

    // MARK: kept as text

    static let componentName = "X-TMINUS-PERSONAL"

    /// As kept in the store: a calendar of one `X-TMINUS-PERSONAL` per instance.
    public var text: String {
        var calendar = VCalendar.empty()
        calendar.otherComponents = instances.keys.sorted().map { key in
            let own = instances[key] ?? Instance()
            return Component(name: Self.componentName, properties: (key.isEmpty ? [] : [Property(name: "RECURRENCE-ID", value: key)]) + own.properties,
                             components: own.alarms)
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    /// The part kept as `text` (an empty part when it cannot be read: the person sees what everyone does).
    public init(text: String) {
        guard let calendar = try? ICalendarParser.parse(text, options: ParseOptions(mode: .lenient)).calendar else { return }
        for component in calendar.otherComponents where component.name == Self.componentName {
            instances[Self.key(of: component)] = Instance(properties: component.properties.filter(Self.isPersonal),
                                                          alarms: component.children(VAlarm.componentName))
        }
    }
}

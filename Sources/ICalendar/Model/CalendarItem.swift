/// What VEVENT and VTODO share: identity, text, scheduling and RFC 7986 presentation.
public protocol CalendarItem: ComponentView {}

extension CalendarItem {
    public var uid: String? { get { text("UID") } set { setText("UID", newValue) } }
    public var summary: String? { get { text("SUMMARY") } set { setText("SUMMARY", newValue) } }
    public var descriptionText: String? { get { text("DESCRIPTION") } set { setText("DESCRIPTION", newValue) } }
    public var location: String? { get { text("LOCATION") } set { setText("LOCATION", newValue) } }
    /// URL is a URI value, not TEXT: no escaping.
    public var url: String? {
        get { component.first("URL")?.value }
        set { component.set("URL", newValue.map { Property(name: "URL", value: $0) }) }
    }
    public var status: String? { get { text("STATUS")?.uppercased() } set { setText("STATUS", newValue) } }
    /// RFC 7986 COLOR: a CSS3 colour name (or, leniently, a hex value).
    public var color: String? { get { text("COLOR") } set { setText("COLOR", newValue) } }
    /// RFC 7986 IMAGE by reference (VALUE=URI); inline images stay as raw properties.
    public var imageURI: String? {
        get { component.all("IMAGE").first { $0.parameter("VALUE")?.uppercased() != "BINARY" }?.value }
        set { component.set("IMAGE", newValue.map { Property(name: "IMAGE", parameters: [Parameter("VALUE", "URI")], value: $0) }) }
    }

    public var dtstart: DateTimeValue? { get { dateTime("DTSTART") } set { setDateTime("DTSTART", newValue) } }
    public var recurrenceId: DateTimeValue? { get { dateTime("RECURRENCE-ID") } set { setDateTime("RECURRENCE-ID", newValue) } }
    public var dtstamp: DateTimeValue? { get { dateTime("DTSTAMP") } set { setDateTime("DTSTAMP", newValue) } }
    public var created: DateTimeValue? { get { dateTime("CREATED") } set { setDateTime("CREATED", newValue) } }
    public var lastModified: DateTimeValue? { get { dateTime("LAST-MODIFIED") } set { setDateTime("LAST-MODIFIED", newValue) } }

    public var sequence: Int? { get { integer("SEQUENCE") } set { setInteger("SEQUENCE", newValue) } }
    /// 0 = undefined, 1 = highest … 9 = lowest.
    public var priority: Int? { get { integer("PRIORITY") } set { setInteger("PRIORITY", newValue) } }

    /// Every CATEGORIES value, across repeated properties.
    public var categories: [String] {
        get { component.all("CATEGORIES").flatMap(\.textList).filter { !$0.isEmpty } }
        set {
            component.set("CATEGORIES", newValue.isEmpty ? nil
                : Property(name: "CATEGORIES", value: newValue.map(TextEscaping.escape).joined(separator: ",")))
        }
    }

    /// Raw RRULE texts; several are allowed (RFC 2445, still seen in the wild).
    public var rrules: [String] {
        get { component.all("RRULE").map(\.value) }
        set { component.setAll("RRULE", newValue.map { Property(name: "RRULE", value: $0) }) }
    }

    public var rdates: [RecurrenceDate] { component.all("RDATE").flatMap { RecurrenceDate.values(of: $0) ?? [] } }
    public var exdates: [DateTimeValue] { component.all("EXDATE").flatMap { DateTimeValue.values(of: $0) ?? [] } }

    public var alarms: [VAlarm] {
        get { component.children("VALARM").map(VAlarm.init(component:)) }
        set {
            component.components.removeAll { $0.name == "VALARM" }
            component.components += newValue.map(\.component)
        }
    }

    public var isRecurring: Bool { !rrules.isEmpty || !component.all("RDATE").isEmpty }
}

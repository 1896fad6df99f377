/// Writes a calendar one component at a time, to exactly the bytes
/// `CalendarWriter` (with `.generate`) writes for the whole calendar: each
/// component is normalised (`TimeZoneNormalizer`) and serialised as it comes,
/// so that no tree of the whole calendar is ever held.
///
/// Why: a feed of 100,000 countdowns built a component tree for every event,
/// and the normaliser a second one, before writing 56 MB: several hundred MB
/// for a moment on every compile (issue #25). Here a component lives only
/// while it is written. Time zones come first in a calendar but are known
/// only at the end, so events and tasks are written to buffers of their own
/// and joined behind the header and zones by `finish()`.
public struct CalendarStreamWriter {
    private let properties: [Property]
    private var embedded: [VTimeZone] = []
    /// Events written so far, in chunks of about `chunkBytes`, and the one
    /// being filled: never one array, which grew by copying itself (56 MB
    /// of events were twice that for a moment; issue #41).
    private var eventChunks: [[UInt8]] = []
    private var events: [UInt8] = []
    private var todos: [UInt8] = []
    private var zones = TimeZoneNormalizer.Usage()
    private let writer = CalendarWriter(timeZones: .keep)

    /// `properties`: the calendar's own (VERSION, PRODID, NAME, …).
    public init(properties: [Property]) {
        self.properties = properties
    }

    /// A VTIMEZONE a component may use; written only for a TZID the zone
    /// database does not know, as `CalendarWriter` keeps such definitions.
    public mutating func addTimeZone(_ component: Component) {
        guard !embedded.contains(where: { $0.component == component }) else { return }
        embedded.append(VTimeZone(component: component))
    }

    /// An event or a task (any other component goes with the events, as `VCalendar` files it).
    public mutating func add(_ component: Component) {
        let normalized = zones.rewriteAll(component)
        if component.name == VTodo.componentName {
            writer.write(normalized, into: &todos)
        } else {
            if events.isEmpty { events.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4) }
            writer.write(normalized, into: &events)
            if events.count >= Self.chunkBytes {
                eventChunks.append(events)
                events = []
            }
        }
    }

    /// About how large an event chunk grows before the next begins.
    static let chunkBytes = 1 << 20

    /// The calendar's bytes.
    public func finish() -> [UInt8] {
        var written = self
        let parts = written.takeParts()
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { output += part }
        return output
    }

    /// The calendar's bytes in the parts they were written in (the header and
    /// zones, the events in chunks, the tasks and the end), for a writer of a large
    /// calendar that must not hold a second copy of it joined (`finish()`).
    /// Moved out: the writer is left with no events or tasks. (Mutating, not
    /// `consuming`: the consuming form that moved the chunks out of this
    /// copyable struct corrupted the heap in a debug build of Swift 6.3,
    /// "free(): invalid next size", every run; this form never did.)
    public mutating func takeParts() -> [[UInt8]] {
        var head: [UInt8] = []
        LineFolder.fold("BEGIN:VCALENDAR", into: &head)
        for property in properties where !property.name.hasPrefix("X-LIC-ERROR") {
            LineFolder.fold(ContentLineWriter.line(property), into: &head)
        }
        for zone in zones.timeZones(keeping: embedded) { writer.write(zone.component, into: &head) }
        var tail = todos
        todos = []
        LineFolder.fold("END:VCALENDAR", into: &tail)
        var parts = [head]
        parts += eventChunks
        eventChunks = []
        parts.append(events)
        events = []
        parts.append(tail)
        return parts
    }
}

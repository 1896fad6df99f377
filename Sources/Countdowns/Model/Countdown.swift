import Foundation
import ICalendar

/// One thing to count down to (or up from): a calendar event or task plus how
/// to show it. Value type; the store assigns `id`, the mapping keeps whatever
/// iCalendar data tminus does not model so that exports re-import losslessly.
public struct Countdown: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, Hashable, Codable { case event, task }

    /// Store row id; nil until saved.
    public var id: Int64?
    /// Stable forever: kept from the source, or generated once.
    public var uid: String
    public var title: String
    public var notes: String?
    public var location: String?
    public var url: String? {
        get { rare.box?.fields.url }
        set { rare.update { $0.url = newValue } }
    }

    /// The first occurrence: an all-day date, a zoned, UTC or floating time (DUE for a task).
    public var target: DateTimeValue
    /// An explicit end (DTEND), or a duration; nil means a point in time / one day.
    public var end: DateTimeValue?
    public var duration: ICalDuration? {
        get { rare.box?.fields.duration }
        set { rare.update { $0.duration = newValue } }
    }

    public var repeatRule: Repeat
    public var recurrenceDates: [RecurrenceDate] {
        get { rare.box?.fields.recurrenceDates ?? [] }
        set { rare.update { $0.recurrenceDates = newValue } }
    }
    public var exceptionDates: [DateTimeValue] {
        get { rare.box?.fields.exceptionDates ?? [] }
        set { rare.update { $0.exceptionDates = newValue } }
    }
    /// RECURRENCE-ID overrides (moved or cancelled instances), kept whole.
    public var overrides: [Component] {
        get { rare.box?.fields.overrides ?? [] }
        set { rare.update { $0.overrides = newValue } }
    }
    /// VTIMEZONEs for TZIDs only the source calendar defined (not Olson or Windows names).
    public var timeZoneDefinitions: [Component] {
        get { rare.box?.fields.timeZoneDefinitions ?? [] }
        set { rare.update { $0.timeZoneDefinitions = newValue } }
    }

    public var direction: Direction
    /// The day the counted span began (a term's first day): `progress` runs
    /// from it to the target. Repeats measure from their previous occurrence instead.
    public var countsFrom: CivilDate? {
        get { rare.box?.fields.countsFrom }
        set { rare.update { $0.countsFrom = newValue } }
    }
    public var displayUnit: DisplayUnit
    public var presentation: Presentation {
        get { rare.box?.fields.presentation ?? CountdownRareFields.defaults.presentation }
        set { rare.update { $0.presentation = newValue } }
    }
    /// RFC 7986 COLOR as the source wrote it (a CSS colour name).
    public var calendarColor: String? {
        get { rare.box?.fields.calendarColor }
        set { rare.update { $0.calendarColor = newValue } }
    }
    public var categories: [String]
    /// Alarm offsets relative to the target (negative = before).
    public var alarms: [ICalDuration] {
        get { rare.box?.fields.alarms ?? [] }
        set { rare.update { $0.alarms = newValue } }
    }

    public var kind: Kind
    public var status: CountdownStatus
    /// 0 = undefined, 1 = highest … 9 = lowest (tasks mostly).
    public var priority: Int? {
        get { rare.box?.fields.priority }
        set { rare.update { $0.priority = newValue } }
    }
    public var percentComplete: Int? {
        get { rare.box?.fields.percentComplete }
        set { rare.update { $0.percentComplete = newValue } }
    }
    public var completedAt: DateTimeValue? {
        get { rare.box?.fields.completedAt }
        set { rare.update { $0.completedAt = newValue } }
    }

    /// Where it came from: a file path or URL, or nil when added by hand.
    public var source: String?
    public var sequence: Int
    public var created: Date?
    public var lastModified: Date?
    /// Who made it and who changed it last, as the store keeps them (a
    /// person's login, "admin token", "command line", a source's address);
    /// never read from or written to a calendar.
    public var createdBy: String?
    public var changedBy: String?

    /// What tminus changed when it read this countdown from a calendar (a rule
    /// libical cannot read left out, …), in English, as `ItemRepair` said it.
    public var warnings: [String] {
        get { rare.box?.fields.warnings ?? [] }
        set { rare.update { $0.warnings = newValue } }
    }

    /// Properties and sub-components tminus does not model, written back unchanged.
    public var extraProperties: [Property]
    public var extraComponents: [Component] {
        get { rare.box?.fields.extraComponents ?? [] }
        set { rare.update { $0.extraComponents = newValue } }
    }

    /// The fields above that most countdowns leave at their defaults (their
    /// accessors say which), out of line: `CountdownRareFields`.
    private var rare = CountdownRareStorage()

    public init(uid: String, title: String, target: DateTimeValue, repeatRule: Repeat = .none, kind: Kind = .event) {
        self.uid = uid
        self.title = title
        self.target = target
        self.repeatRule = repeatRule
        self.kind = kind
        direction = .down
        displayUnit = .dynamic
        categories = []
        status = .active
        sequence = 0
        extraProperties = []
    }

    public var isAllDay: Bool { target.isAllDay }
    public var isRepeating: Bool { repeatRule.isRepeating || !recurrenceDates.isEmpty }

    /// The title with `{n}` replaced by the occurrence number and `{nth}` by its
    /// ordinal ("Anna turns {n}" → "Anna turns 30").
    public func renderedTitle(occurrenceNumber: Int?) -> String {
        Self.render(title, occurrenceNumber: occurrenceNumber)
    }

    /// `title` with `{n}` and `{nth}` filled in (an instance's own summary, too).
    /// Without a number (a repeat that is not yearly, a one-off, a series
    /// written as one rule) the placeholder is left out (`withoutNumber`): a
    /// title never shows `{n}` to anyone.
    public static func render(_ title: String, occurrenceNumber: Int?) -> String {
        guard title.contains("{") else { return title }
        guard let number = occurrenceNumber else { return withoutNumber(title) }
        return title.replacingOccurrences(of: "{nth}", with: Ordinal.english(number))
            .replacingOccurrences(of: "{n}", with: String(number))
    }

    /// Whether the title has a number to fill in.
    public static func hasNumber(_ title: String) -> Bool { title.contains("{n}") || title.contains("{nth}") }

    /// The title without `{n}` and `{nth}`, and without the spaces they leave:
    /// "Anna turns {n}" → "Anna turns", "Our {nth} anniversary" → "Our
    /// anniversary". What an output that shows one title for every occurrence
    /// writes (a rule's SUMMARY), where any one number would be wrong for the others.
    public static func withoutNumber(_ title: String) -> String {
        guard hasNumber(title) else { return title }
        let stripped = title.replacingOccurrences(of: "{nth}", with: "").replacingOccurrences(of: "{n}", with: "")
        let words = stripped.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let trimmed = words.trimmingCharacters(in: .whitespaces)
        // "({n})" leaves "()": taken out with it.
        let tidy = trimmed.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
            .replacingOccurrences(of: " ()", with: "").replacingOccurrences(of: "()", with: "")
        return tidy.isEmpty ? title.replacingOccurrences(of: "{nth}", with: "#").replacingOccurrences(of: "{n}", with: "#") : tidy
    }

    /// `title` with `{n}` as `numberText` ("29½" for a half-birthday).
    public static func render(_ title: String, numberText: String) -> String {
        title.replacingOccurrences(of: "{n}", with: numberText)
    }
}

/// "1st", "2nd", "3rd", "11th", "22nd".
public enum Ordinal {
    public static func english(_ number: Int) -> String {
        let tens = abs(number) % 100, ones = abs(number) % 10
        let suffix = (11...13).contains(tens) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th"
        return "\(number)\(suffix)"
    }
}

extension Countdown {
    /// Ticks a task off as RFC 5545 says: STATUS:COMPLETED, COMPLETED (the
    /// instant, in UTC) and PERCENT-COMPLETE:100. The export then carries all three.
    public mutating func complete(at instant: Date) {
        status = .completed
        percentComplete = 100
        completedAt = .utc(LocalDateTime(wallSeconds: Int64(instant.timeIntervalSince1970.rounded(.down))))
    }

    /// Undoes `complete(at:)`: the task is open again, with no completion recorded.
    public mutating func reopen() {
        status = .active
        percentComplete = nil
        completedAt = nil
    }
}

import CLibical

/// An RRULE, validated (by libical for the values, by tminus for what RFC 5545
/// forbids) and kept as its parts, which `RuleExpander` reads.
public struct RecurrenceRule: Sendable, Hashable, CustomStringConvertible {
    public struct Part: Sendable, Hashable {
        public var key: String
        public var value: String
    }

    public enum Frequency: String, Sendable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public private(set) var parts: [Part]

    /// Reads an RRULE. Strict reading (the default, for validation and for what
    /// tminus itself writes) refuses every RFC 5545 violation. Lenient reading is
    /// how an event is still expanded the way calendar clients and
    /// recurring-ical-events read it, while the validator keeps reporting the error:
    /// - COUNT together with UNTIL: both limits apply (whichever ends first);
    /// - COUNT=0: the rule adds nothing, so DTSTART stands alone;
    /// - a negative COUNT: the COUNT is ignored.
    public init(parsing text: String, lenient: Bool = false) throws(Invalid) {
        LibicalRuntime.ensure()
        // libical reads the rule as a C string, so a NUL would hide the rest of
        // it: libical would expand another rule than the one checked here (found
        // by FuzzRecurrenceRule: a slow unit). RRULE values are ASCII.
        if let offset = text.utf8.firstIndex(where: { !(0x20...0x7E).contains($0) }).map({ text.utf8.distance(from: text.utf8.startIndex, to: $0) }) {
            throw Invalid(message: "byte \(offset + 1) is not printable ASCII, which an RRULE must be")
        }
        var parts: [Part] = []
        var seen = Set<String>()
        for piece in text.trimmingCharacters(in: " \t").split(separator: ";", omittingEmptySubsequences: true) {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, !pair[1].isEmpty else { throw Invalid(message: "'\(piece)' is not KEY=VALUE") }
            let key = pair[0].uppercased()
            guard seen.insert(key).inserted else { throw Invalid(message: "\(key) appears twice") }
            parts.append(Part(key: key, value: pair[1].uppercased()))
        }
        self.parts = parts
        // A misspelt part is named with its likely meaning; libical would only say it rejects the rule.
        if let unknown = parts.first(where: { !Self.partNames.contains($0.key) && !$0.key.hasPrefix("X-") }) {
            let guess = Spelling.suggestion(for: unknown.key, among: Self.partNames).map { " (did you mean \($0)?)" } ?? ""
            throw Invalid(message: "\(unknown.key) is not a rule part\(guess)")
        }
        guard let freq = value("FREQ") else { throw Invalid(message: "FREQ is missing") }
        guard Frequency(rawValue: freq) != nil else { throw Invalid(message: "FREQ=\(freq) is not a frequency") }
        if !lenient, value("COUNT") != nil, value("UNTIL") != nil {
            throw Invalid(message: "COUNT and UNTIL must not both be given (a lenient reading applies both limits)")
        }
        if let count = value("COUNT"), Int(count).map({ $0 < (lenient ? 0 : 1) }) ?? true {
            if lenient, Int(count) != nil {
                parts.removeAll { $0.key == "COUNT" }
                self.parts = parts
            } else {
                let reading = Int(count).map { $0 == 0 ? " (a lenient reading keeps DTSTART alone)" : $0 < 0 ? " (a lenient reading ignores it)" : "" } ?? ""
                throw Invalid(message: "COUNT=\(count) is not a positive integer\(reading)")
            }
        }
        if let interval = value("INTERVAL"), Int(interval).map({ $0 < 1 }) ?? true {
            throw Invalid(message: "INTERVAL=\(interval) is not a positive integer")
        }
        // Bounds on the arithmetic, not on RFC 5545 (which sets none): far beyond any use.
        if let interval = value("INTERVAL").flatMap(Int.init), interval > Int(Int32.max) {
            throw Invalid(message: "INTERVAL=\(interval) is above \(Int32.max), the most tminus supports")
        }
        if let count = value("COUNT").flatMap(Int.init), count > Int(Int32.max) {
            throw Invalid(message: "COUNT=\(count) is above \(Int32.max), the most tminus supports")
        }
        if let until = value("UNTIL"), DateTimeValue(text: until, tzid: nil, valueType: nil) == nil {
            throw Invalid(message: "UNTIL=\(until) is not a DATE or DATE-TIME")
        }
        if let problem = RulePartProblem.positionProblem(in: self) { throw Invalid(message: problem) }
        if let problem = RscaleExpander.problem(with: self) { throw Invalid(message: problem) }
        if !lenient, let problem = RuleFeasibility.forbidden(in: self) { throw Invalid(message: problem) }
        // A rule with no instance is Gregorian arithmetic; RscaleExpander answers for its own calendars.
        if !RscaleExpander.takes(self), let problem = RuleFeasibility.problem(with: self) { throw Invalid(message: problem) }
        // libical checks the rest (BYxxx ranges, weekday names, RSCALE …). It no longer
        // expands anything, so COUNT and INTERVAL, which it keeps in an int and a short,
        // are tminus's alone (INTERVAL=90061 is a valid SECONDLY rule).
        clearLibicalErrno()
        let parsed = icalrecurrencetype_from_string(removing(["COUNT", "INTERVAL"]).text)
        // libical strdup()s RSCALE into the returned struct and leaves freeing it
        // to the caller (found by FuzzRecurrenceRule: RSCALE=CHINESE;FREQ=YEARLY).
        free(parsed.rscale)
        if parsed.freq == ICAL_NO_RECURRENCE || libicalErrno != ICAL_NO_ERROR {
            throw Invalid(message: RulePartProblem.problem(in: self) ?? "libical rejects it (check the BY-parts' values and weekday names)")
        }
    }

    init(parts: [Part]) { self.parts = parts }

    /// The parts RFC 5545 (3.3.10) and RFC 7529 (RSCALE, SKIP) define.
    public static let partNames = ["FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
                                   "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP"]

    public var text: String { parts.map { "\($0.key)=\($0.value)" }.joined(separator: ";") }
    public var description: String { text }

    public func value(_ key: String) -> String? { parts.first { $0.key == key }?.value }

    public func list(_ key: String) -> [String] {
        value(key)?.split(separator: ",").map(String.init) ?? []
    }

    public func integers(_ key: String) -> [Int] { list(key).compactMap { Int($0) } }

    public var frequency: Frequency { Frequency(rawValue: value("FREQ") ?? "") ?? .yearly }
    public var interval: Int { value("INTERVAL").flatMap(Int.init) ?? 1 }
    public var count: Int? { value("COUNT").flatMap(Int.init) }
    public var until: DateTimeValue? { value("UNTIL").flatMap { DateTimeValue(text: $0, tzid: nil, valueType: nil) } }

    public func removing(_ keys: Set<String>) -> RecurrenceRule {
        RecurrenceRule(parts: parts.filter { !keys.contains($0.key) })
    }

    public func setting(_ key: String, _ value: String?) -> RecurrenceRule {
        var copy = parts
        if let index = copy.firstIndex(where: { $0.key == key }) {
            if let value { copy[index].value = value } else { copy.remove(at: index) }
        } else if let value {
            copy.append(Part(key: key, value: value))
        }
        return RecurrenceRule(parts: copy)
    }
}

/// Turns content lines into a component tree, repairing bad nesting with a
/// diagnostic instead of giving up: an END that names no open component closes
/// the innermost one, a missing END is closed where its parent ends, stray
/// properties are reported.
struct ComponentTreeBuilder {
    private(set) var roots: [Component] = []
    private(set) var diagnostics: [Diagnostic] = []
    private var stack: [Component] = []
    /// UID of each open component, kept aside so that reporting stays O(1) per line.
    private var openUIDs: [String?] = []
    private var componentCount = 0
    private let options: ParseOptions

    init(options: ParseOptions) { self.options = options }

    mutating func consume(_ reader: ContentLineReader) throws(ICalendarError) {
        for contentLine in reader {
            let parsed: (name: String, parameters: [Parameter], value: String)
            do {
                parsed = try ContentLineParser.parse(contentLine.text)
            } catch {
                report(.error, contentLine.line, describe(error, contentLine.text))
                continue
            }
            switch parsed.name {
            case "BEGIN": try begin(parsed.value, line: contentLine.line)
            case "END": end(parsed.value, line: contentLine.line)
            default:
                let property = Property(name: parsed.name, parameters: parsed.parameters, value: parsed.value,
                                        line: contentLine.line)
                guard !stack.isEmpty else {
                    report(.error, contentLine.line, property: parsed.name, "property outside of any component")
                    continue
                }
                stack[stack.count - 1].properties.append(property)
                if property.name == "UID", openUIDs[openUIDs.count - 1] == nil { openUIDs[openUIDs.count - 1] = property.text }
            }
        }
        while let open = stack.last {
            report(.error, open.line, component: open.name, "BEGIN:\(open.name) is never closed (END:\(open.name) missing)")
            close()
        }
    }

    private mutating func begin(_ rawName: String, line: Int) throws(ICalendarError) {
        // The depth is checked before anything else: invalid names are pushed too,
        // and N of them once nested N deep, which made each END a linear search.
        guard stack.count < options.maxDepth else {
            throw .limitExceeded("components nested deeper than \(options.maxDepth) levels at line \(line)")
        }
        let name = rawName.trimmingCharacters(in: " \t").uppercased()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter && $0.isASCII || $0.isASCIIDigit || $0 == "-" }) else {
            report(.error, line, "BEGIN with an invalid component name '\(rawName.prefix(40))'")
            // Still push it so that its END and contents stay paired; it is dropped on close.
            stack.append(Component(name: "X-INVALID", line: line))
            openUIDs.append(nil)
            return
        }
        guard stack.count < options.maxDepth else {
            throw .limitExceeded("components nested deeper than \(options.maxDepth) levels at line \(line)")
        }
        componentCount += 1
        guard componentCount <= options.maxComponents else {
            throw .limitExceeded("more than \(options.maxComponents) components (line \(line))")
        }
        stack.append(Component(name: name, line: line))
        openUIDs.append(nil)
    }

    private mutating func end(_ rawName: String, line: Int) {
        let name = rawName.trimmingCharacters(in: " \t").uppercased()
        guard let depth = stack.lastIndex(where: { $0.name == name }) else {
            // A misspelt END (`END:VTOOD`) closes the innermost component, as the
            // reference reads it; otherwise every later component would nest inside
            // it until the depth limit refused the file. A stray END of a real
            // component (`END:VALARM` twice) is only reported, and the outermost
            // component is closed only by its own END or the end of the input, so
            // neither can cut a calendar short.
            guard stack.count > 1, !Self.knownComponents.contains(name), let open = stack.last else {
                report(.error, line, "END:\(rawName.prefix(40)) without a matching BEGIN; ignored")
                return
            }
            report(.error, line, component: open.name,
                   "END:\(rawName.prefix(40)) matches no open component; read as END:\(open.name) (BEGIN at line \(open.line))")
            close()
            return
        }
        while stack.count - 1 > depth {
            let open = stack[stack.count - 1]
            report(.error, open.line, component: open.name,
                   "BEGIN:\(open.name) is never closed; closed at line \(line) by END:\(name)")
            close()
        }
        close()
    }

    /// Component names of RFC 5545, 7953 and 9073: an END of one of these that is
    /// not open is stray, not a misspelling of the open one.
    static let knownComponents: Set<String> = [
        "VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "STANDARD", "DAYLIGHT", "VALARM",
        "VAVAILABILITY", "AVAILABLE", "VLOCATION", "VRESOURCE", "PARTICIPANT",
    ]

    private mutating func close() {
        var finished = stack.removeLast()
        // Appending doubled the arrays' capacity as they grew; a 100,000-event file
        // keeps every one of them, so each is cut to its size once, here.
        finished.properties = Self.exact(finished.properties)
        finished.components = Self.exact(finished.components)
        openUIDs.removeLast()
        if finished.name == "X-INVALID" { return }
        if stack.isEmpty {
            roots.append(finished)
        } else {
            stack[stack.count - 1].components.append(finished)
        }
    }

    private static func exact<Element>(_ array: [Element]) -> [Element] {
        guard array.capacity > array.count + 2 else { return array }
        var copy: [Element] = []
        copy.reserveCapacity(array.count)
        copy.append(contentsOf: array)
        return copy
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ line: Int, component: String? = nil,
                                 property: String? = nil, _ message: String) {
        // Capped: a hostile file can have a problem on every line, and a million
        // diagnostics cost more than the calendar itself.
        guard diagnostics.count <= ParseOptions.maxDiagnostics else { return }
        if diagnostics.count == ParseOptions.maxDiagnostics {
            diagnostics.append(Diagnostic(.error, line: line, "more than \(ParseOptions.maxDiagnostics) problems; the rest are not listed"))
            return
        }
        diagnostics.append(Diagnostic(severity, line: line, component: component ?? stack.last?.name,
                                      uid: openUIDs.last ?? nil, property: property, message))
    }

    private func describe(_ error: ContentLineParser.Failure, _ text: Substring) -> String {
        let excerpt = text.prefix(60)
        switch error {
        case .noColon: return "not a content line (no ':' after the name): '\(excerpt)'"
        case .badName(let name): return "invalid property name '\(name)'"
        case .badParameter(let name): return "invalid parameter '\(name)' in '\(excerpt)'"
        }
    }
}

extension ComponentTreeBuilder {
    /// Parses text that holds exactly one component (libical's VTIMEZONE output).
    static func parseSingle(_ text: String) throws -> Component? {
        var builder = ComponentTreeBuilder(options: .lenient)
        try builder.consume(ContentLineReader(text))
        return builder.roots.first
    }
}

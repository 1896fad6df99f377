/// One problem found while reading a calendar, located well enough that a user
/// can open the file and fix it: line, component, UID and property.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Codable {
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The property or component cannot be used; lenient parsing drops it.
        case error
        /// Unusual but usable.
        case warning
    }

    public var severity: Severity
    public var line: Int
    public var component: String?
    public var uid: String?
    public var property: String?
    public var message: String

    public init(_ severity: Severity, line: Int, component: String? = nil, uid: String? = nil,
                property: String? = nil, _ message: String) {
        self.severity = severity
        self.line = line
        self.component = component
        self.uid = uid
        self.property = property
        self.message = Diagnostic.printable(message)
    }

    /// Excerpts of hostile input must not put control bytes on a terminal.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { TextEscaping.isControl($0) ? "\u{FFFD}" : $0 }))
    }

    public var description: String {
        var where_ = "line \(line)"
        if let component { where_ += ", \(component)" }
        if let uid { where_ += " (UID \(uid))" }
        if let property { where_ += ", \(property)" }
        return "\(where_): \(severity.rawValue): \(message)"
    }
}

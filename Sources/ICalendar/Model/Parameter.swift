/// A property parameter (`TZID=Europe/Berlin`, `VALUE=DATE`). Values keep their
/// original text so that unknown parameters round-trip untouched.
public struct Parameter: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = ASCII.uppercased(name)
        self.values = values
    }

    public init(_ name: String, _ value: String) {
        self.init(name: name, values: [value])
    }

    /// The first value, which is all most parameters have.
    public var value: String { values.first ?? "" }
}

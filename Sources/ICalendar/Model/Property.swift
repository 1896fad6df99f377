/// One content line after unfolding. `value` is the raw value text exactly as it
/// appeared (still escaped), so properties tminus does not understand round-trip.
public struct Property: Sendable, Hashable {
    public var name: String
    public var parameters: [Parameter]
    public var value: String
    /// 1-based line where the property started in its source, 0 when built in code.
    /// Ignored by equality so that a parse → write → parse round trip compares equal.
    public var line: Int

    public init(name: String, parameters: [Parameter] = [], value: String, line: Int = 0) {
        self.name = ASCII.uppercased(name)
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// A TEXT property built from an unescaped Swift string.
    public static func text(_ name: String, _ text: String, parameters: [Parameter] = []) -> Property {
        Property(name: name, parameters: parameters, value: TextEscaping.escape(text))
    }

    public func parameter(_ name: String) -> String? {
        let upper = ASCII.uppercased(name)
        return parameters.first { $0.name == upper }?.value
    }

    public mutating func setParameter(_ name: String, _ value: String?) {
        let upper = ASCII.uppercased(name)
        parameters.removeAll { $0.name == upper }
        if let value { parameters.append(Parameter(upper, value)) }
    }

    /// The value read as TEXT (escapes resolved).
    public var text: String { TextEscaping.unescape(value) }

    /// The value read as a comma-separated list of TEXT values (CATEGORIES).
    public var textList: [String] { TextEscaping.splitList(value).map(TextEscaping.unescape) }

    public static func == (lhs: Property, rhs: Property) -> Bool {
        lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(parameters)
        hasher.combine(value)
    }
}

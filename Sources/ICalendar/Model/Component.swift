/// A generic iCalendar component: the lossless tree every typed view is built on.
public struct Component: Sendable, Hashable {
    public var name: String
    public var properties: [Property]
    public var components: [Component]
    /// Line of the `BEGIN:` that opened it; 0 when built in code. Not part of equality.
    public var line: Int

    public init(name: String, properties: [Property] = [], components: [Component] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = line
    }

    public func first(_ name: String) -> Property? {
        let upper = name.uppercased()
        return properties.first { $0.name == upper }
    }

    public func all(_ name: String) -> [Property] {
        let upper = name.uppercased()
        return properties.filter { $0.name == upper }
    }

    /// Replaces every property called `name` with `property` (or removes them for nil),
    /// keeping the position of the first one so that output order stays stable.
    public mutating func set(_ name: String, _ property: Property?) {
        setAll(name, property.map { [$0] } ?? [])
    }

    public mutating func setAll(_ name: String, _ replacement: [Property]) {
        let upper = name.uppercased()
        let index = properties.firstIndex { $0.name == upper } ?? properties.count
        let before = properties[..<index].filter { $0.name != upper }
        let after = properties[index...].filter { $0.name != upper }
        properties = before + replacement + after
    }

    public mutating func remove(_ name: String) { set(name, nil) }

    public func children(_ name: String) -> [Component] {
        let upper = name.uppercased()
        return components.filter { $0.name == upper }
    }

    public static func == (lhs: Component, rhs: Component) -> Bool {
        lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.components == rhs.components
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(properties)
        hasher.combine(components)
    }
}

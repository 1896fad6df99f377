/// A typed view over a lossless `Component`. Typed accessors read and write the
/// underlying properties, so anything tminus does not model is kept as it was.
public protocol ComponentView: Sendable, Hashable {
    static var componentName: String { get }
    var component: Component { get set }
    init(component: Component)
}

extension ComponentView {
    public init() { self.init(component: Component(name: Self.componentName)) }

    /// Line of the BEGIN that opened the component in its source (0 if built in code).
    public var line: Int { component.line }

    public var properties: [Property] { component.properties }

    func text(_ name: String) -> String? { component.first(name)?.text }

    mutating func setText(_ name: String, _ value: String?) {
        component.set(name, value.map { Property.text(name, $0) })
    }

    func dateTime(_ name: String) -> DateTimeValue? { component.first(name).flatMap(DateTimeValue.init(property:)) }

    mutating func setDateTime(_ name: String, _ value: DateTimeValue?) {
        let keep = component.first(name)?.parameters ?? []
        component.set(name, value?.property(name, keeping: keep))
    }

    func integer(_ name: String) -> Int? {
        component.first(name).flatMap { Int($0.value.trimmingCharacters(in: " \t")) }
    }

    mutating func setInteger(_ name: String, _ value: Int?) {
        component.set(name, value.map { Property(name: name, value: String($0)) })
    }
}

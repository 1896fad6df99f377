/// `X-LIC-ERROR` properties are libical's way of reporting a bad value inline.
/// A file another libical program wrote may carry them; they become diagnostics
/// here and are never written back out.
enum LibicalErrorProperties {
    static func extract(from component: inout Component) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let uid = component.first("UID")?.text
        for property in component.properties where property.name.hasPrefix("X-LIC-ERROR") {
            diagnostics.append(Diagnostic(.warning, line: property.line, component: component.name, uid: uid,
                                          property: property.name, "libical reported: \(property.text)"))
        }
        component.properties.removeAll { $0.name.hasPrefix("X-LIC-ERROR") }
        for index in component.components.indices {
            diagnostics += extract(from: &component.components[index])
        }
        return diagnostics
    }
}

/// `X-LIC-ERROR` properties are libical's way of reporting a bad value inline.
/// A file another libical program wrote may carry them; they become diagnostics
/// here and are never written back out.
enum LibicalErrorProperties {
    static func extract(from component: inout Component) -> [Diagnostic] {
        // Read before writing: mutating a tree that is still shared copies it, and
        // almost no file holds these, so most calls must leave the tree untouched.
        guard holdsErrors(component) else { return [] }
        var diagnostics: [Diagnostic] = []
        let uid = component.first("UID")?.text
        for property in component.properties where property.name.hasPrefix("X-LIC-ERROR") {
            diagnostics.append(Diagnostic(.warning, line: property.line, component: component.name, uid: uid,
                                          property: property.name, "libical reported: \(property.text)"))
        }
        if !diagnostics.isEmpty { component.properties.removeAll { $0.name.hasPrefix("X-LIC-ERROR") } }
        for index in component.components.indices {
            diagnostics += extract(from: &component.components[index])
        }
        return diagnostics
    }

    private static func holdsErrors(_ component: Component) -> Bool {
        component.properties.contains { $0.name.hasPrefix("X-LIC-ERROR") } || component.components.contains(where: holdsErrors)
    }
}

import Mustache

/// A value a template reads. Mustache reads stored properties through Mirror,
/// which cannot see computed ones; a view lists those in `templateValues`.
/// A name found in neither is left to the enclosing context, as Mustache does.
package protocol TemplateView: MustacheParent {
    var templateValues: [String: Any] { get }
}

extension TemplateView {
    package var templateValues: [String: Any] { [:] }

    package func child(named name: String) -> Any? {
        if let value = templateValues[name] { return value }
        guard let value = Mirror(reflecting: self).children.first(where: { $0.label == name })?.value else { return nil }
        let optional = Mirror(reflecting: value)
        guard optional.displayStyle == .optional else { return value }
        return optional.children.first?.value
    }
}

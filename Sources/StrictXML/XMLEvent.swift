/// One step of a document as `StrictXMLReader` reads it: an element's start
/// (with its attributes), text inside the current element, or its end.
/// Comments and whitespace between elements are not reported.
public enum XMLEvent: Sendable, Equatable {
    case start(XMLStartTag)
    /// Character data, CDATA sections merged in; entities and character
    /// references already replaced by the parser (only the five predefined ones exist).
    case text(String)
    case end
}

/// An element's start tag, names resolved to their namespaces.
public struct XMLStartTag: Sendable, Equatable {
    /// The namespace URI, or "" for none.
    public var namespace: String
    public var local: String
    /// As written, with its prefix (`d:prop`): for messages.
    public var qualifiedName: String
    /// In document order; namespace declarations (`xmlns`, `xmlns:x`) are not among them.
    public var attributes: [XMLAttribute]
    /// The line it starts on, for messages.
    public var line: Int

    public init(namespace: String, local: String, qualifiedName: String, attributes: [XMLAttribute] = [], line: Int = 0) {
        self.namespace = namespace
        self.local = local
        self.qualifiedName = qualifiedName
        self.attributes = attributes
        self.line = line
    }
}

public struct XMLAttribute: Sendable, Equatable {
    /// As written, with its prefix (`xlink:href`).
    public var qualifiedName: String
    public var local: String
    /// The namespace URI, or "" for an unprefixed attribute.
    public var namespace: String
    public var value: String

    public init(qualifiedName: String, local: String, namespace: String = "", value: String) {
        self.qualifiedName = qualifiedName
        self.local = local
        self.namespace = namespace
        self.value = value
    }
}

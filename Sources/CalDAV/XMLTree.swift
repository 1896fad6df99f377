import Foundation
import StrictXML

/// A request body's XML, read by libxml2's reader with limits
/// (`StrictXMLReader`), namespace-aware, into a small tree. No DTD or
/// processing instruction is accepted, only UTF-8, and the size, depth,
/// element count and name lengths are bounded: a hostile body costs a
/// refusal, not memory.
public struct XMLTree: Sendable, Equatable {
    public var name: DAVName
    public var attributes: [String: String]
    public var children: [XMLTree]
    /// The element's own text (trimmed), for leaves such as `href` and `sync-token`.
    public var text: String

    public init(name: DAVName, attributes: [String: String] = [:], children: [XMLTree] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child named `name`.
    public func child(_ name: DAVName) -> XMLTree? { children.first { $0.name == name } }
    public func children(_ name: DAVName) -> [XMLTree] { children.filter { $0.name == name } }

    public typealias Limits = XMLLimits
    /// Why a body was refused: said to the client in a 400.
    public typealias Refused = XMLRefusal

    /// The document's root element.
    public static func parse(_ data: Data, limits: Limits = Limits()) throws(Refused) -> XMLTree {
        var stack: [XMLTree] = []
        var texts: [String] = []
        var root: XMLTree?
        try StrictXMLReader(limits: limits).read(data) { event throws(Refused) in
            switch event {
            case .start(let tag):
                var attributes: [String: String] = [:]
                for attribute in tag.attributes { attributes[attribute.qualifiedName] = attribute.value }
                stack.append(XMLTree(name: DAVName(tag.namespace, tag.local), attributes: attributes))
                texts.append("")
            case .text(let text):
                guard !texts.isEmpty else { return }
                texts[texts.count - 1] += text
            case .end:
                guard var element = stack.popLast(), let text = texts.popLast() else { return }
                element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            }
        }
        guard let root else { throw Refused("the XML body has no element") }
        return root
    }
}

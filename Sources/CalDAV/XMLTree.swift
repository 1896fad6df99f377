import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A request body's XML, read by a real parser (libxml2 through
/// FoundationXML), namespace-aware, into a small tree. No DTD is accepted
/// (so no entity is ever expanded, however nested), and the size, depth and
/// element count are bounded: a hostile body costs a refusal, not memory.
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

    public struct Limits: Sendable {
        public var maxBytes = 256 * 1024
        public var maxDepth = 32
        public var maxElements = 20_000
        public init() {}
    }

    /// Why a body was refused: said to the client in a 400.
    public struct Refused: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The document's root element.
    public static func parse(_ data: Data, limits: Limits = Limits()) throws(Refused) -> XMLTree {
        guard data.count <= limits.maxBytes else { throw Refused("the XML body is larger than \(limits.maxBytes / 1024) KB") }
        // FoundationXML traps on a name that is not UTF-8 (found by the fuzz harness): such a body never reaches it.
        guard String(validating: data, as: UTF8.self) != nil else { throw Refused("the XML body is not UTF-8") }
        // A DTD is where entities are declared: WebDAV bodies never need one.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw Refused("the XML body has a DOCTYPE or ENTITY declaration, which is not accepted")
        }
        // A processing instruction other than the leading XML declaration: FoundationXML hands libxml2's
        // NULL data of `<?:target?>` to strlen and the process dies (found by FuzzDAVBodies). WebDAV bodies have none.
        if Self.hasProcessingInstruction(data) { throw Refused("the XML body has a processing instruction, which is not accepted") }
        let builder = Builder(limits: limits)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let refusal = builder.refusal { throw refusal }
        guard parsed, let root = builder.root else {
            let line = parser.lineNumber
            throw Refused("the XML body is not well-formed (line \(line)): \(parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable")")
        }
        return root
    }

    /// Whether `<?` appears anywhere but in an XML declaration at the very start (after a BOM or whitespace).
    static func hasProcessingInstruction(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        if bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5]) {
            // Past the declaration's own `?>`.
            var index = start + 5
            while index + 1 < bytes.count, !(bytes[index] == 0x3F && bytes[index + 1] == 0x3E) { index += 1 }
            start = index + 2
        }
        guard start < bytes.count else { return false }
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0x3C, bytes[index + 1] == 0x3F { return true }
            index += 1
        }
        return false
    }

    private final class Builder: NSObject, XMLParserDelegate {
        let limits: Limits
        var stack: [XMLTree] = []
        var texts: [String] = []
        var root: XMLTree?
        var elements = 0
        var refusal: Refused?

        init(limits: Limits) { self.limits = limits }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements += 1
            guard elements <= limits.maxElements, stack.count < limits.maxDepth else {
                refusal = Refused(elements > limits.maxElements ? "the XML body has more than \(limits.maxElements) elements"
                                                                 : "the XML body nests deeper than \(limits.maxDepth)")
                parser.abortParsing()
                return
            }
            stack.append(XMLTree(name: DAVName(namespaceURI ?? "", elementName), attributes: attributes))
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !texts.isEmpty else { return }
            texts[texts.count - 1] += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard !texts.isEmpty else { return }
            texts[texts.count - 1] += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard var element = stack.popLast(), let text = texts.popLast() else { return }
            element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            refusal = Refused("the XML body declares an entity, which is not accepted")
            parser.abortParsing()
        }
    }
}

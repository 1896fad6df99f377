import CLibxml2
import Foundation

/// Reads hostile XML (a WebDAV request body, an uploaded SVG) with libxml2's
/// pull reader, reporting each element, its text and its end to the caller.
///
/// FoundationXML crashed the process three times on request bodies (issue #59),
/// each time in its own code over libxml2, and patching its input did not end
/// it. libxml2's reader is the parser under it, fuzzed for years by OSS-Fuzz,
/// and used here directly with everything a body does not need turned off:
/// - no network (`XML_PARSE_NONET`), no DTD loaded, no default attributes,
///   no entity substitution, `XML_PARSE_HUGE` off (libxml2's own limits stay);
/// - the encoding forced to UTF-8, after `XMLPrologCheck` has refused NUL
///   bytes, another declared encoding, processing instructions and DTDs;
/// - `XMLLimits` checked on every node: size before reading, then depth,
///   elements, attributes and name lengths as they come;
/// - errors collected through a structured handler (never printed), the
///   first error ending the read: a document with any error is refused.
public struct StrictXMLReader: Sendable {
    public var limits: XMLLimits
    /// Names the document in refusals: "the XML body", "the SVG".
    public var subject: String

    public init(limits: XMLLimits = XMLLimits(), subject: String = "the XML body") {
        self.limits = limits
        self.subject = subject
    }

    /// libxml2 sets up its globals once, before any thread uses it.
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                                       | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)

    /// Reads `data`, calling `visit` for each event in document order. A
    /// refusal thrown by `visit` ends the read and is thrown from here.
    public func read(_ data: Data, _ visit: (XMLEvent) throws(XMLRefusal) -> Void) throws(XMLRefusal) {
        guard data.count <= limits.maxBytes else { throw refusal("is larger than \(limits.maxBytes / 1024) KB") }
        _ = Self.initialized
        let result: Result<Void, XMLRefusal> = data.withUnsafeBytes { raw in
            do throws(XMLRefusal) {
                let body = try XMLPrologCheck.body(of: raw, subject: subject)
                guard !body.isEmpty else { throw refusal("is empty") }
                try readChecked(body, visit)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private func refusal(_ words: String) -> XMLRefusal { XMLRefusal("\(subject) \(words)") }

    private func readChecked(_ body: UnsafeRawBufferPointer, _ visit: (XMLEvent) throws(XMLRefusal) -> Void) throws(XMLRefusal) {
        guard let base = body.baseAddress?.assumingMemoryBound(to: CChar.self),
              let reader = xmlReaderForMemory(base, Int32(body.count), nil, "UTF-8", Self.options) else {
            throw refusal("could not be read")
        }
        defer { xmlFreeTextReader(reader) }
        let errors = ErrorBox(subject: subject)
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            let errors = Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue()
            guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, errors.first == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "unreadable"
            errors.first = XMLRefusal("\(errors.subject) is not well-formed (line \(error.pointee.line)): "
                                      + message.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        }, Unmanaged.passUnretained(errors).toOpaque())
        var elements = 0
        var sawRoot = false
        while true {
            let status = xmlTextReaderRead(reader)
            if let first = errors.first { throw first }
            if status == 0 { break }
            guard status == 1 else { throw refusal("is not well-formed") }
            let depth = Int(xmlTextReaderDepth(reader))
            let type = xmlTextReaderNodeType(reader)
            switch UInt32(type) {
            case XML_READER_TYPE_ELEMENT.rawValue:
                elements += 1
                guard elements <= limits.maxElements else { throw refusal("has more than \(limits.maxElements) elements") }
                guard depth < limits.maxDepth else { throw refusal("nests deeper than \(limits.maxDepth)") }
                if depth == 0 {
                    guard !sawRoot else { throw refusal("has more than one root element") }
                    sawRoot = true
                }
                let tag = try startTag(reader)
                let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                try visit(.start(tag))
                if isEmpty { try visit(.end) }
            case XML_READER_TYPE_END_ELEMENT.rawValue:
                try visit(.end)
            case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue, XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue:
                if depth > 0 { try visit(.text(Self.string(xmlTextReaderConstValue(reader)))) }
            case XML_READER_TYPE_WHITESPACE.rawValue, XML_READER_TYPE_COMMENT.rawValue:
                continue
            case XML_READER_TYPE_PROCESSING_INSTRUCTION.rawValue:
                throw refusal("has a processing instruction, which is not accepted")
            case XML_READER_TYPE_DOCUMENT_TYPE.rawValue, XML_READER_TYPE_ENTITY.rawValue, XML_READER_TYPE_ENTITY_REFERENCE.rawValue:
                throw refusal("has a DOCTYPE or an entity, which is not accepted")
            default:
                throw refusal("has a node of a kind it has no use for (\(type))")
            }
        }
        if let first = errors.first { throw first }
        guard sawRoot else { throw refusal("has no element") }
    }

    private func startTag(_ reader: xmlTextReaderPtr) throws(XMLRefusal) -> XMLStartTag {
        let line = Int(xmlTextReaderGetParserLineNumber(reader))
        var tag = XMLStartTag(namespace: try namespace(xmlTextReaderConstNamespaceUri(reader)),
                              local: try name(xmlTextReaderConstLocalName(reader)),
                              qualifiedName: try name(xmlTextReaderConstName(reader)), line: line)
        guard xmlTextReaderHasAttributes(reader) == 1 else { return tag }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if xmlTextReaderIsNamespaceDecl(reader) == 1 {
                _ = try namespace(xmlTextReaderConstValue(reader))
                continue
            }
            guard tag.attributes.count < limits.maxAttributes else {
                throw refusal("has more than \(limits.maxAttributes) attributes on <\(tag.qualifiedName)> (line \(line))")
            }
            tag.attributes.append(XMLAttribute(qualifiedName: try name(xmlTextReaderConstName(reader)),
                                               local: try name(xmlTextReaderConstLocalName(reader)),
                                               namespace: try namespace(xmlTextReaderConstNamespaceUri(reader)),
                                               value: Self.string(xmlTextReaderConstValue(reader))))
        }
        _ = xmlTextReaderMoveToElement(reader)
        return tag
    }

    private func namespace(_ pointer: UnsafePointer<xmlChar>?) throws(XMLRefusal) -> String {
        guard let pointer else { return "" }
        guard Self.length(pointer, upTo: limits.maxNamespaceBytes + 1) <= limits.maxNamespaceBytes else {
            throw refusal("has a namespace longer than \(limits.maxNamespaceBytes) bytes")
        }
        return String(cString: pointer)
    }

    private func name(_ pointer: UnsafePointer<xmlChar>?) throws(XMLRefusal) -> String {
        guard let pointer else { return "" }
        guard Self.length(pointer, upTo: limits.maxNameBytes + 1) <= limits.maxNameBytes else {
            throw refusal("has a name longer than \(limits.maxNameBytes) bytes")
        }
        return String(cString: pointer)
    }

    /// libxml2's strings are UTF-8 owned by the reader: copied at once.
    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func length(_ pointer: UnsafePointer<xmlChar>, upTo limit: Int) -> Int {
        var count = 0
        while count < limit, pointer[count] != 0 { count += 1 }
        return count
    }

    /// The first error libxml2 reported, kept where the C callback can reach it.
    private final class ErrorBox {
        let subject: String
        var first: XMLRefusal?
        init(subject: String) { self.subject = subject }
    }
}

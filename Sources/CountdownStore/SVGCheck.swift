import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Checks an uploaded SVG before it is stored. Uploaded images are served from
/// the pages' own origin, so an SVG with a script in it would run as tminus
/// (seen in Chromium). An SVG is accepted only when it is well-formed XML whose
/// root is `<svg>`, with:
/// - no `<script>` or `<foreignObject>` (which can hold HTML);
/// - no `on…` event attributes;
/// - no references outside the file: `href` only to `#fragment` or
///   `data:image/…`, and no `url(…)` to anything but `#fragment`;
/// - no DOCTYPE (entities can expand without bound or read files).
///
/// The image route also sends a sandboxing CSP; this check is the first line.
public enum SVGCheck {
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    static let forbiddenElements: Set<String> = ["script", "foreignobject", "iframe", "embed", "object", "handler", "listener"]

    public static func validate(_ bytes: Data) throws(Refusal) {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil || text.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            throw Refusal(description: "the SVG has a DOCTYPE or ENTITY declaration")
        }
        #if canImport(FoundationXML) || canImport(Darwin)
        let parser = XMLParser(data: bytes)
        let inspector = Inspector()
        parser.delegate = inspector
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let refusal = inspector.refusal { throw refusal }
        guard parsed else {
            throw Refusal(description: "the SVG is not well-formed XML (line \(parser.lineNumber): \(parser.parserError.map { "\($0.localizedDescription)" } ?? "parse error"))")
        }
        guard inspector.root == "svg" else { throw Refusal(description: "the file's root element is not <svg>") }
        #endif
    }

    static func localName(_ name: String) -> String {
        String(name.split(separator: ":").last ?? Substring(name)).lowercased()
    }

    static func isAllowedReference(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return trimmed.hasPrefix("#") || trimmed.hasPrefix("data:image/")
    }

    /// `url(…)` in a style or presentation attribute may only name a fragment.
    static func hasExternalURL(_ value: String) -> Bool {
        var rest = Substring(value.lowercased())
        while let range = rest.range(of: "url(") {
            let target = rest[range.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" }
            if !target.hasPrefix("#") { return true }
            rest = rest[range.upperBound...]
        }
        return rest.contains("@import")
    }

    private final class Inspector: NSObject, XMLParserDelegate {
        var root: String?
        var refusal: Refusal?
        var inStyle = false

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let name = SVGCheck.localName(elementName)
            if root == nil { root = name }
            if SVGCheck.forbiddenElements.contains(name) { refuse(parser, "the SVG has a <\(elementName)> element (line \(parser.lineNumber))") }
            inStyle = name == "style"
            for (attribute, value) in attributes {
                let local = SVGCheck.localName(attribute)
                if local.hasPrefix("on") {
                    refuse(parser, "the SVG's <\(elementName)> has an event attribute \(attribute) (line \(parser.lineNumber))")
                } else if local == "href" || local == "src", !SVGCheck.isAllowedReference(value) {
                    refuse(parser, "the SVG's <\(elementName)> refers outside the file (\(attribute), line \(parser.lineNumber))")
                } else if SVGCheck.hasExternalURL(value) {
                    refuse(parser, "the SVG's <\(elementName)> loads an external url() (\(attribute), line \(parser.lineNumber))")
                }
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            inStyle = false
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inStyle, SVGCheck.hasExternalURL(string) { refuse(parser, "the SVG's <style> loads an external url() (line \(parser.lineNumber))") }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if inStyle, SVGCheck.hasExternalURL(String(decoding: CDATABlock, as: UTF8.self)) {
                refuse(parser, "the SVG's <style> loads an external url() (line \(parser.lineNumber))")
            }
        }

        private func refuse(_ parser: XMLParser, _ message: String) {
            if refusal == nil { refusal = Refusal(description: message) }
            parser.abortParsing()
        }
    }
}

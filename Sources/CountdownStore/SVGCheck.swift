import Foundation
import StrictXML

/// Checks an uploaded SVG before it is stored. Uploaded images are served from
/// the pages' own origin, so an SVG with a script in it would run as tminus
/// (seen in Chromium). An SVG is accepted only when it is well-formed XML whose
/// root is `<svg>` in the SVG namespace, and holds only what is on the lists
/// below: a deny-list missed `<set>`/`<animate>` of `href` to `javascript:`,
/// `<use href="data:…">`, CSS escapes in `@import` and `image-set()` (issue #27).
/// - Elements: the static SVG elements (shapes, text, paint servers, clipping,
///   masking, filters, `use`, `image`, `style`), nothing that animates, links,
///   scripts or embeds; elements of the editors' metadata namespaces (Inkscape,
///   Sodipodi, RDF, Dublin Core, Creative Commons), which browsers never run;
///   nothing in XHTML, MathML or an unknown namespace.
/// - Attributes: SVG's own and its presentation attributes, `xml:`/`xmlns`,
///   `data-*`, `aria-*`, and the metadata namespaces'; never `on…`.
/// - References: `href` only to `#fragment`, and on `<image>`/`<feImage>` also
///   to an inline PNG, JPEG, GIF or WebP; `url()` only to `#fragment`; no CSS
///   escapes, `@import`, `image-set()` or `expression()` anywhere.
/// - No DOCTYPE (entities can expand without bound or read files), no processing
///   instruction, UTF-8 only: read by `StrictXMLReader`, as CalDAV bodies are.
///
/// The image route also sends a sandboxing CSP; this check is the first line.
public enum SVGCheck {
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    package static let svgNamespace = "http://www.w3.org/2000/svg"
    package static let xlinkNamespace = "http://www.w3.org/1999/xlink"
    package static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// Editors' metadata: browsers ignore elements and attributes in these.
    package static let metadataNamespaces: Set<String> = [
        "http://www.inkscape.org/namespaces/inkscape", "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/",
        "http://creativecommons.org/ns#", "http://web.resource.org/cc/", "http://ns.adobe.com/AdobeIllustrator/10.0/",
        "http://ns.adobe.com/SaveForWeb/1.0/", "http://ns.adobe.com/Extensibility/1.0/", "http://www.bohemiancoding.com/sketch/ns",
    ]

    package static let allowedElements: Set<String> = [
        "svg", "g", "defs", "symbol", "use", "title", "desc", "metadata", "switch", "style", "image", "view",
        "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath",
        "linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker", "filter",
        "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
        "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncR", "feFuncG", "feFuncB",
        "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
        "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
    ]

    /// SVG's attributes and presentation attributes (SVG 1.1 and 2), lowercased.
    package static let allowedAttributes: Set<String> = Set([
        "id", "class", "style", "lang", "tabindex", "role", "version", "baseprofile", "viewbox", "preserveaspectratio",
        "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "width", "height", "d", "points",
        "pathlength", "transform", "gradienttransform", "gradientunits", "spreadmethod", "offset", "patternunits",
        "patterncontentunits", "patterntransform", "clippathunits", "maskunits", "maskcontentunits", "markerunits",
        "markerwidth", "markerheight", "refx", "refy", "orient", "filterunits", "primitiveunits", "in", "in2", "result",
        "mode", "type", "values", "tablevalues", "slope", "intercept", "amplitude", "exponent", "operator", "k1", "k2",
        "k3", "k4", "order", "kernelmatrix", "divisor", "bias", "targetx", "targety", "edgemode", "kernelunitlength",
        "preservealpha", "surfacescale", "diffuseconstant", "specularconstant", "specularexponent", "scale",
        "xchannelselector", "ychannelselector", "stddeviation", "dx", "dy", "radius", "basefrequency", "numoctaves",
        "seed", "stitchtiles", "azimuth", "elevation", "z", "pointsatx", "pointsaty", "pointsatz", "limitingconeangle",
        "rotate", "lengthadjust", "textlength", "startoffset", "method", "spacing", "side", "href", "media", "title",
        "requiredfeatures", "requiredextensions", "systemlanguage", "externalresourcesrequired", "zoomandpan",
        "enable-background", "crossorigin", "decoding",
        // presentation attributes
        "alignment-baseline", "baseline-shift", "clip", "clip-path", "clip-rule", "color", "color-interpolation",
        "color-interpolation-filters", "color-profile", "color-rendering", "cursor", "direction", "display",
        "dominant-baseline", "fill", "fill-opacity", "fill-rule", "filter", "flood-color", "flood-opacity", "font",
        "font-family", "font-size", "font-size-adjust", "font-stretch", "font-style", "font-variant", "font-weight",
        "glyph-orientation-horizontal", "glyph-orientation-vertical", "image-rendering", "kerning", "letter-spacing",
        "lighting-color", "marker", "marker-end", "marker-mid", "marker-start", "mask", "mask-type", "opacity", "overflow",
        "paint-order", "pointer-events", "shape-rendering", "stop-color", "stop-opacity", "stroke", "stroke-dasharray",
        "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-opacity", "stroke-width",
        "text-anchor", "text-decoration", "text-rendering", "transform-origin", "unicode-bidi", "vector-effect",
        "visibility", "word-spacing", "writing-mode", "white-space", "isolation", "mix-blend-mode",
    ])

    /// How much of an SVG is read: its bytes are bounded by the image limit before it gets here.
    static let limits: XMLLimits = {
        var limits = XMLLimits()
        limits.maxBytes = .max
        limits.maxDepth = 256
        limits.maxElements = 200_000
        limits.maxAttributes = 1024
        return limits
    }()

    public static func validate(_ bytes: Data) throws(Refusal) {
        var inspector = Inspector()
        do {
            try StrictXMLReader(limits: limits, subject: "the SVG").read(bytes) { event throws(XMLRefusal) in try inspector.inspect(event) }
        } catch {
            throw Refusal(description: error.description)
        }
        guard inspector.root == "svg" else { throw Refusal(description: "the file's root element is not <svg> in the SVG namespace") }
    }

    /// What `href` may point at on `element`.
    package static func isAllowedReference(_ value: String, on element: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if trimmed.hasPrefix("#") { return true }
        guard element == "image" || element == "feImage" else { return false }
        return ["data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp"].contains { trimmed.hasPrefix($0 + ";") || trimmed.hasPrefix($0 + ",") }
    }

    /// Why a piece of CSS (a `<style>` element, a `style` attribute, any
    /// attribute value) may load something or hide what it does, or nil.
    package static func cssProblem(_ value: String) -> String? {
        let lower = value.lowercased()
        if lower.contains("\\") { return "a CSS escape" }
        for word in ["@import", "image-set(", "expression(", "-moz-binding", "behavior:", "javascript:"] where lower.contains(word) {
            return word.hasSuffix("(") ? "\(word))" : word
        }
        var rest = Substring(lower)
        while let range = rest.range(of: "url(") {
            let target = rest[range.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" }
            if !target.hasPrefix("#") { return "an external url()" }
            rest = rest[range.upperBound...]
        }
        return nil
    }

    /// Checks each element, attribute and `<style>` text as the reader reports them.
    private struct Inspector {
        var root: String?
        var inStyle = false
        var style = ""
        var styleLine = 0

        mutating func inspect(_ event: XMLEvent) throws(XMLRefusal) {
            switch event {
            case .start(let tag): try start(tag)
            case .text(let text): if inStyle { style += text }
            case .end:
                if inStyle, let problem = SVGCheck.cssProblem(style) { throw XMLRefusal("the SVG's <style> uses \(problem) (line \(styleLine))") }
                inStyle = false
                style = ""
            }
        }

        mutating func start(_ tag: XMLStartTag) throws(XMLRefusal) {
            let (namespace, elementName, shown, line) = (tag.namespace, tag.local, tag.qualifiedName, tag.line)
            if root == nil { root = namespace == SVGCheck.svgNamespace ? elementName : "" }
            let isMetadata = SVGCheck.metadataNamespaces.contains(namespace)
            guard isMetadata || (namespace == SVGCheck.svgNamespace && SVGCheck.allowedElements.contains(elementName)) else {
                throw XMLRefusal("the SVG has a <\(shown)> element, which is not on the list of static SVG elements (line \(line))")
            }
            inStyle = elementName == "style" && !isMetadata
            styleLine = line
            style = ""
            for attribute in tag.attributes {
                let name = attribute.qualifiedName
                let local = attribute.local.lowercased()
                let prefix = name.contains(":") ? String(name.split(separator: ":").first!) : nil
                if local.hasPrefix("on") {
                    throw XMLRefusal("the SVG's <\(shown)> has an event attribute \(name) (line \(line))")
                }
                if local == "href" || local == "src" {
                    guard SVGCheck.isAllowedReference(attribute.value, on: elementName) else {
                        throw XMLRefusal("the SVG's <\(shown)> refers outside the file (\(name), line \(line))")
                    }
                } else if !(isMetadata || Self.isAllowed(attribute: name, local: local, prefix: prefix)) {
                    throw XMLRefusal("the SVG's <\(shown)> has an attribute \(name), which is not on the list (line \(line))")
                }
                if let problem = SVGCheck.cssProblem(attribute.value) {
                    throw XMLRefusal("the SVG's <\(shown)> uses \(problem) (\(name), line \(line))")
                }
            }
        }

        /// SVG's own attributes, `xml:…`, `data-…`, `aria-…`, and
        /// those of the editors (prefixed `inkscape:`, `sodipodi:`, …).
        static func isAllowed(attribute: String, local: String, prefix: String?) -> Bool {
            if prefix == "xml" { return true }
            if let prefix { return ["inkscape", "sodipodi", "rdf", "cc", "dc", "sketch", "i", "x", "graph"].contains(prefix.lowercased()) }
            return SVGCheck.allowedAttributes.contains(local) || local.hasPrefix("data-") || local.hasPrefix("aria-")
        }
    }
}

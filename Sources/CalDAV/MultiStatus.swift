import StrictXML

/// Writes a `207 Multi-Status` body (RFC 4918 §13) one response at a time,
/// into bytes: a 10,000-object calendar's answer is one buffer, built as it
/// is read, with no tree of it held.
public struct MultiStatus: Sendable {
    /// One resource's answer: the properties it has (200) and those it has
    /// not (404), or a status alone (a member deleted since a sync token).
    public struct Response: Sendable {
        public var href: String
        public var found: [(name: DAVName, value: PropertyValue)]
        public var missing: [DAVName]
        public var status: Int?
        /// Properties answered with another status (a refused PROPPATCH: 403, and 424 for the rest).
        public var others: [(status: Int, names: [DAVName])]

        public init(href: String, found: [(name: DAVName, value: PropertyValue)] = [], missing: [DAVName] = [], status: Int? = nil,
                    others: [(status: Int, names: [DAVName])] = []) {
            self.href = href
            self.found = found
            self.missing = missing
            self.status = status
            self.others = others
        }
    }

    /// The largest body written: past it, `add` writes nothing more and the
    /// request is answered 507 (`overflowed`). A 10,000-object calendar's
    /// objects with their data are 5–10 MB.
    public static let maxBytes = 48 << 20

    private var bytes: [UInt8] = []
    public private(set) var count = 0
    /// Whether a response was left out because the body reached `maxBytes`.
    public private(set) var overflowed = false
    /// Prefixes of the namespaces the request named beyond tminus's own, declared once on the root:
    /// an unknown namespace is written once, not once for each property of each resource.
    private var prefixes: [String: String] = [:]

    /// `names`: the properties the request asked for, whose namespaces the root declares.
    public init(names: [DAVName] = []) {
        bytes.reserveCapacity(4096)
        append(#"<?xml version="1.0" encoding="utf-8"?>"# + "\n")
        append(#"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ical="http://apple.com/ns/ical/""#)
        for name in names where name.prefix == nil && prefixes[name.namespace] == nil {
            let prefix = "x\(prefixes.count)"
            prefixes[name.namespace] = prefix
            append(" xmlns:\(prefix)=\"\(MarkupEscape.text(name.namespace))\"")
        }
        append(">")
    }

    public mutating func add(_ response: Response) {
        guard !overflowed else { return }
        guard bytes.count < Self.maxBytes else {
            overflowed = true
            return
        }
        count += 1
        append("<d:response><d:href>\(MarkupEscape.text(response.href))</d:href>")
        if let status = response.status {
            append("<d:status>\(Self.statusLine(status))</d:status>")
        } else {
            if !response.found.isEmpty || (response.missing.isEmpty && response.others.isEmpty) {
                append("<d:propstat><d:prop>")
                for (name, value) in response.found { write(name, value) }
                append("</d:prop><d:status>\(Self.statusLine(200))</d:status></d:propstat>")
            }
            if !response.missing.isEmpty {
                append("<d:propstat><d:prop>")
                for name in response.missing { append(empty(name)) }
                append("</d:prop><d:status>\(Self.statusLine(404))</d:status></d:propstat>")
            }
            for (code, names) in response.others where !names.isEmpty {
                append("<d:propstat><d:prop>")
                for name in names { append(empty(name)) }
                append("</d:prop><d:status>\(Self.statusLine(code))</d:status></d:propstat>")
            }
        }
        append("</d:response>")
    }

    /// The body, with a sync-collection's new token when given.
    public consuming func finish(syncToken: String? = nil) -> [UInt8] {
        if let syncToken { append("<d:sync-token>\(MarkupEscape.text(syncToken))</d:sync-token>") }
        append("</d:multistatus>")
        return bytes
    }

    private mutating func write(_ name: DAVName, _ value: PropertyValue) {
        let (open, close) = tags(name)
        append(open)
        switch value {
        case .text(let text): append(MarkupEscape.text(text))
        case .href(let href): append("<d:href>\(MarkupEscape.text(href))</d:href>")
        case .hrefs(let hrefs): for href in hrefs { append("<d:href>\(MarkupEscape.text(href))</d:href>") }
        case .elements(let names): for name in names { append(Self.empty(name)) }
        case .privileges(let names): for name in names { append("<d:privilege>\(Self.empty(name))</d:privilege>") }
        case .components(let names): for name in names { append("<c:comp name=\"\(MarkupEscape.text(name))\"/>") }
        case .reports(let names): for name in names { append("<d:supported-report><d:report>\(Self.empty(name))</d:report></d:supported-report>") }
        }
        append(close)
    }

    private func tags(_ name: DAVName) -> (String, String) {
        if let prefix = name.prefix ?? prefixes[name.namespace] { return ("<\(prefix):\(name.local)>", "</\(prefix):\(name.local)>") }
        return ("<x:\(name.local) xmlns:x=\"\(MarkupEscape.text(name.namespace))\">", "</x:\(name.local)>")
    }

    private func empty(_ name: DAVName) -> String {
        if let prefix = prefixes[name.namespace] { return "<\(prefix):\(name.local)/>" }
        return Self.empty(name)
    }

    static func empty(_ name: DAVName) -> String {
        if let prefix = name.prefix { return "<\(prefix):\(name.local)/>" }
        return "<x:\(name.local) xmlns:x=\"\(MarkupEscape.text(name.namespace))\"/>"
    }

    static func statusLine(_ code: Int) -> String {
        let reason = switch code {
        case 200: "OK"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 424: "Failed Dependency"
        case 507: "Insufficient Storage"
        default: "Status"
        }
        return "HTTP/1.1 \(code) \(reason)"
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
}

/// A DAV error body (RFC 4918 §16): the precondition that failed, such as
/// `valid-sync-token` or `need-privileges`, with a sentence for people.
public enum DAVError {
    public static func body(_ condition: DAVName, _ message: String? = nil) -> [UInt8] {
        var text = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        text += #"<d:error xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"# + MultiStatus.empty(condition)
        if let message { text += "<d:responsedescription>\(MarkupEscape.text(message))</d:responsedescription>" }
        text += "</d:error>"
        return Array(text.utf8)
    }
}

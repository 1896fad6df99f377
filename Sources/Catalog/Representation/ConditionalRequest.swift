import Foundation
import HTTPTypes
import ICalendar

/// RFC 7232 for GET and HEAD: If-None-Match (weak comparison, lists, `*`) wins
/// over If-Modified-Since, and an If-Modified-Since that does not parse is ignored.
package struct ConditionalRequest {
    package var ifNoneMatch: [String]?
    package var ifModifiedSince: String?

    package init(_ headers: HTTPFields) {
        let matches = headers[values: .ifNoneMatch]
        ifNoneMatch = matches.isEmpty ? nil : matches.flatMap(Self.entityTags)
        ifModifiedSince = headers[.ifModifiedSince]
    }

    /// Splits `W/"a", "b,c"` into its tags, keeping commas inside quotes.
    package static func entityTags(_ header: String) -> [String] {
        // The common case, one tag and no list: no per-character work. (This runs
        // on every conditional GET, and the loop below was a tenth of a 304.)
        // Foundation's whitespace trimming was 4% of a 304 (perf, session 5): bytes only.
        if !header.utf8.contains(UInt8(ascii: ",")) {
            let tag = ASCII.trimmed(header)
            return tag.isEmpty ? [] : [String(tag)]
        }
        var tags: [String] = [], current = "", quoted = false
        for character in header {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted { tags.append(current); current = ""; continue }
            current.append(character)
        }
        tags.append(current)
        return tags.map { String(ASCII.trimmed($0)) }.filter { !$0.isEmpty }
    }

    /// Weak comparison: `W/"x"` matches `"x"`.
    package static func opaque(_ tag: String) -> String { tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }

    package func isNotModified(etag: String, lastModified: Date) -> Bool {
        if let tags = ifNoneMatch {
            return tags.contains { $0 == "*" || Self.opaque($0) == Self.opaque(etag) }
        }
        guard let raw = ifModifiedSince, let since = HTTPDate.parse(raw) else { return false }
        return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }

    /// `ConditionalRequest(headers).isNotModified(…)` without making one: a
    /// single If-None-Match tag (what calendar clients and CDNs send) is
    /// compared where it lies in the header, with no array or string made
    /// (issue #41: the 304 path); a list, several fields, `W/`, `*` or
    /// If-Modified-Since take the general way.
    package static func isNotModified(_ headers: HTTPFields, etag: String, lastModified: Date) -> Bool {
        if let match = onlyValue(of: .ifNoneMatch, in: headers), !match.utf8.contains(UInt8(ascii: ",")) {
            let tag = ASCII.trimmed(match)
            if tag == etag[...] { return true }
            // One plain tag that differs: not modified only by a weak form or `*`, which the general way compares.
            if !tag.utf8.starts(with: "W/".utf8), tag.utf8.first != UInt8(ascii: "*"), !etag.utf8.starts(with: "W/".utf8) {
                return false
            }
        }
        return ConditionalRequest(headers).isNotModified(etag: etag, lastModified: lastModified)
    }

    /// The value of the one field named `name`, or nil when there is none or
    /// more than one: `HTTPFields`' subscript joins the values into a new
    /// string even when there is one (half of a 304's header work, `perf`).
    private static func onlyValue(of name: HTTPField.Name, in headers: HTTPFields) -> String? {
        var found: String?
        for field in headers where field.name == name {
            if found != nil { return nil }
            found = field.value
        }
        return found
    }
}

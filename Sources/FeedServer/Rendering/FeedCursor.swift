import Foundation

/// Where the next page of a feed's list starts (`?cursor=` on
/// `/feeds/{slug}.json` and on the feed's page): opaque to clients.
///
/// It pins what the list was computed from, so that a walk sees each
/// countdown exactly once: the feed's revision (and its holidays feed's), the
/// minute the remaining times are computed for (so a walk that takes a few
/// minutes still reads one consistent ordering), and a fingerprint of the
/// parameters that order and filter the list. After a change to the feed the
/// cursor is stale: the server answers 409 and the client starts again from
/// the first page. A cursor older than `maxAge` is refused the same way, so
/// that old minutes do not become cache keys forever.
struct FeedCursor: Hashable, Sendable {
    var revision: Int64
    var holidaysRevision: Int64?
    var minute: Int
    var offset: Int
    var fingerprint: UInt32

    static let maxAge = 60   // minutes

    /// The cursor's text: versioned, base64url, no padding.
    var text: String {
        let plain = "1.\(revision).\(holidaysRevision.map(String.init) ?? "-").\(minute).\(offset).\(fingerprint)"
        return Data(plain.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init(revision: Int64, holidaysRevision: Int64?, minute: Int, offset: Int, fingerprint: UInt32) {
        self.revision = revision
        self.holidaysRevision = holidaysRevision
        self.minute = minute
        self.offset = offset
        self.fingerprint = fingerprint
    }

    /// Reads a cursor this server wrote, or nil for anything else.
    init?(text: String) {
        guard text.utf8.count <= 128, text.utf8.allSatisfy({ $0 < 128 }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "1", let revision = Int64(parts[1]), let minute = Int(parts[3]), let offset = Int(parts[4]),
              offset > 0, let fingerprint = UInt32(parts[5]) else { return nil }
        let holidays: Int64?
        if parts[2] == "-" { holidays = nil } else if let value = Int64(parts[2]) { holidays = value } else { return nil }
        self.init(revision: revision, holidaysRevision: holidays, minute: minute, offset: offset, fingerprint: fingerprint)
    }

    /// FNV-1a of the parameters that order and filter a list: the same on every
    /// replica and every run (Swift's `Hasher` is seeded per process).
    static func fingerprint(_ parts: [String]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}

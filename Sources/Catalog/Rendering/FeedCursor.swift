import CountdownStore
@preconcurrency import Crypto
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
///
/// The text carries an HMAC under the server's cursor key (`CursorKey`): the
/// fingerprint is a public function of the parameters, so without the MAC
/// anyone could write a cursor with any offset or minute. Every field is also
/// bounded when read (revisions not negative, an offset no larger than the
/// feed), so that no value from a request reaches trapping arithmetic.
package struct FeedCursor: Hashable, Sendable {
    package var revision: Int64
    package var holidaysRevision: Int64?
    package var minute: Int
    package var offset: Int
    package var fingerprint: UInt32

    package static let maxAge = 60   // minutes
    /// The longest text read: the largest fields (95 bytes of plain text) and the MAC, in base64url.
    package static let maxTextBytes = 192
    /// Bytes of HMAC-SHA256 kept: 128 bits, as RFC 2104 allows (at least half the hash).
    package static let macBytes = 16
    /// The format written: version 2 is sealed; version 1 (unsealed) is no longer read.
    private static let version = "2"

    package init(revision: Int64, holidaysRevision: Int64?, minute: Int, offset: Int, fingerprint: UInt32) {
        self.revision = revision
        self.holidaysRevision = holidaysRevision
        self.minute = minute
        self.offset = offset
        self.fingerprint = fingerprint
    }

    private var plain: String {
        "\(Self.version).\(revision).\(holidaysRevision.map(String.init) ?? "-").\(minute).\(offset).\(fingerprint)"
    }

    /// The cursor's text: the fields and their MAC, base64url without padding.
    package func text(key: SymmetricKey) -> String {
        let fields = Array(plain.utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: fields, using: key)
        return Base64URL.encode(fields + Array(mac).prefix(Self.macBytes))
    }

    /// Reads a cursor this server (or a replica on its store) wrote, or nil for
    /// anything else: a wrong MAC, a field out of its range, another version.
    package init?(text: String, key: SymmetricKey) {
        guard text.utf8.count <= Self.maxTextBytes, let bytes = Base64URL.decode(text), bytes.count > Self.macBytes else { return nil }
        let fields = bytes.dropLast(Self.macBytes)
        let mac = HMAC<SHA256>.authenticationCode(for: fields, using: key)
        guard Secret.constantTimeEquals(Array(Array(mac).prefix(Self.macBytes)), Array(bytes.suffix(Self.macBytes))) else { return nil }
        let parts = String(decoding: fields, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == Self.version, let revision = Int64(parts[1]), revision >= 0, let minute = Int(parts[3]), minute >= 0,
              let offset = Int(parts[4]), offset > 0, let fingerprint = UInt32(parts[5]) else { return nil }
        let holidays: Int64?
        if parts[2] == "-" { holidays = nil } else if let value = Int64(parts[2]), value >= 0 { holidays = value } else { return nil }
        self.init(revision: revision, holidaysRevision: holidays, minute: minute, offset: offset, fingerprint: fingerprint)
    }

    /// FNV-1a of the parameters that order and filter a list: the same on every
    /// replica and every run (Swift's `Hasher` is seeded per process).
    package static func fingerprint(_ parts: [String]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}

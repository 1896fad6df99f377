import Crypto
import Foundation
import GRDB

/// Uploaded images, addressed by SHA-256 and referenced from countdowns as
/// `tminus-image:<sha256>`. Lists of countdowns never read this table.
extension CountdownStore {
    public static let imageScheme = "tminus-image:"

    /// Stores image bytes (deduplicated) and returns the reference to put in `Presentation.image`.
    public func storeImage(_ bytes: Data, mimeType: String) throws -> String {
        guard bytes.count <= limits.maxImageBytes else { throw StoreError.tooLarge(bytes: bytes.count, limit: limits.maxImageBytes) }
        guard ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"].contains(mimeType) else {
            throw StoreError.invalid("\(mimeType) is not an image type tminus serves (png, jpeg, gif, webp, svg)")
        }
        if mimeType == "image/svg+xml" {
            do { try SVGCheck.validate(bytes) } catch { throw StoreError.invalid(error.description) }
        }
        let digest = SHA256Hex.of(bytes)
        let now = clock()
        try pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO image (sha256, mimeType, bytes, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [digest, mimeType, bytes, now])
        }
        return Self.imageScheme + digest
    }

    /// The bytes behind a `tminus-image:` reference.
    public func image(_ reference: String) throws -> (bytes: Data, mimeType: String)? {
        guard reference.hasPrefix(Self.imageScheme) else { return nil }
        let digest = String(reference.dropFirst(Self.imageScheme.count))
        return try pool.read { db in
            try ImageRecord.filter(Column("sha256") == digest).fetchOne(db).map { ($0.bytes, $0.mimeType) }
        }
    }

    /// Guesses the type of an image file from its first bytes.
    public static func imageType(of bytes: Data) -> String? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 12, head[0..<4] == ArraySlice(Array("RIFF".utf8)), head[8..<12] == ArraySlice(Array("WEBP".utf8)) { return "image/webp" }
        if looksLikeSVG(bytes) { return "image/svg+xml" }
        return nil
    }

    /// An SVG starts with `<svg`, after at most a byte-order mark, white space, an
    /// XML declaration and comments: `<svg` merely somewhere in the first bytes
    /// let an HTML page holding `<!-- <svg -->` through as an image.
    static func looksLikeSVG(_ bytes: Data) -> Bool {
        var text = Substring(String(decoding: bytes.prefix(4096), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?xml"), let end = text.range(of: "?>") { text = text[end.upperBound...]; continue }
            if text.hasPrefix("<!--"), let end = text.range(of: "-->") { text = text[end.upperBound...]; continue }
            break
        }
        guard text.hasPrefix("<svg") else { return false }
        let next = text.dropFirst(4).first
        return next == nil || next == ">" || next!.isWhitespace
    }
}

import Foundation

/// Uploaded images, addressed by SHA-256 and referenced from countdowns as
/// `tminus-image:<sha256>`. Each store keeps them apart from countdown rows,
/// so that lists of countdowns never read them.
public enum StoredImage {
    public static let scheme = "tminus-image:"
    public static let types: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"]

    /// Refuses what no store may keep (too large, not an image type tminus
    /// serves, an SVG that could run script); returns the bytes' SHA-256.
    public static func check(_ bytes: Data, mimeType: String, limits: StoreLimits) throws -> String {
        guard bytes.count <= limits.maxImageBytes else { throw StoreError.tooLarge(bytes: bytes.count, limit: limits.maxImageBytes) }
        guard types.contains(mimeType) else {
            throw StoreError.invalid("\(mimeType) is not an image type tminus serves (png, jpeg, gif, webp, svg)")
        }
        if mimeType == "image/svg+xml" {
            do { try SVGCheck.validate(bytes) } catch { throw StoreError.invalid(error.description) }
        }
        return SHA256Hex.of(bytes)
    }

    /// The digest in a `tminus-image:` reference, or nil for anything else.
    public static func digest(in reference: String) -> String? {
        reference.hasPrefix(scheme) ? String(reference.dropFirst(scheme.count)) : nil
    }

    /// Guesses the type of an image file from its first bytes.
    public static func type(of bytes: Data) -> String? {
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
    package static func looksLikeSVG(_ bytes: Data) -> Bool {
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

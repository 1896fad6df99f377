/// What a document must be before a parser sees it: UTF-8 without NUL bytes,
/// at most one XML declaration and only at the start, declaring UTF-8 if it
/// declares an encoding, and no processing instruction or DTD anywhere.
///
/// Each of these reached a crash in FoundationXML (issue #59: an unclosed
/// declaration followed by `<?x?>`, a name that is not UTF-8, an empty
/// processing instruction, UTF-16 without a byte-order mark, `encoding="UTF-7"`).
/// libxml2 itself reads them safely, but WebDAV bodies and SVG images need
/// none of them, so they are refused with a clear reason instead of being
/// handed to a decoder the request chose.
enum XMLPrologCheck {
    /// The body to parse (after a UTF-8 byte-order mark and leading whitespace), or why it is refused.
    static func body(of bytes: UnsafeRawBufferPointer, subject: String) throws(XMLRefusal) -> UnsafeRawBufferPointer {
        guard !bytes.contains(0) else { throw XMLRefusal("\(subject) has a NUL byte") }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw XMLRefusal("\(subject) is not UTF-8 (UTF-16 and other encodings are not accepted)")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        let body = UnsafeRawBufferPointer(rebasing: bytes[start...])
        var rest = 0
        if body.starts(with: Array("<?xml".utf8)), body.count > 5, isSpace(body[5]) {
            rest = try declarationEnd(in: body, subject: subject)
        }
        var index = rest
        while index + 1 < body.count {
            if body[index] == UInt8(ascii: "<") {
                let next = body[index + 1]
                if next == UInt8(ascii: "?") { throw XMLRefusal("\(subject) has a processing instruction, which is not accepted") }
                if next == UInt8(ascii: "!"), Self.startsDeclaration(body, at: index + 2) {
                    throw XMLRefusal("\(subject) has a DOCTYPE or ENTITY declaration, which is not accepted")
                }
            }
            index += 1
        }
        return body
    }

    /// The offset past the declaration's `?>`, after checking what it declares.
    private static func declarationEnd(in body: UnsafeRawBufferPointer, subject: String) throws(XMLRefusal) -> Int {
        var index = 5
        // A declaration is short, and holds no markup: a `<` or `>` before `?>` means it was never closed.
        while index + 1 < body.count, index < 512 {
            let byte = body[index]
            if byte == UInt8(ascii: "?"), body[index + 1] == UInt8(ascii: ">") {
                let declaration = String(decoding: body[5..<index], as: UTF8.self)
                if let encoding = Self.pseudoAttribute("encoding", in: declaration), encoding.lowercased() != "utf-8" {
                    throw XMLRefusal("\(subject) declares the encoding \(encoding.prefix(40)); only UTF-8 is accepted")
                }
                return index + 2
            }
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { break }
            index += 1
        }
        throw XMLRefusal("\(subject)'s declaration (<?xml … ?>) is not closed")
    }

    /// The value of `name="…"` (or `'…'`) in an XML declaration's text; "" when its quotes are missing.
    static func pseudoAttribute(_ name: String, in declaration: String) -> String? {
        guard let found = declaration.range(of: name) else { return nil }
        var rest = declaration[found.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard rest.first == "=" else { return "" }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        let value = rest.dropFirst().prefix { $0 != quote }
        return String(value)
    }

    /// `<!DOCTYPE` or `<!ENTITY` (any case) at `index`, after the `<!`.
    private static func startsDeclaration(_ body: UnsafeRawBufferPointer, at index: Int) -> Bool {
        for word in ["DOCTYPE", "ENTITY"] {
            let letters = Array(word.utf8)
            guard index + letters.count <= body.count else { continue }
            if zip(body[index..<(index + letters.count)], letters).allSatisfy({ $0 & 0xDF == $1 }) { return true }
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// RFC 5545 §3.1 folding: lines of at most 75 octets, CRLF, and a leading space
/// on continuations (which counts toward the 75). Never splits a UTF-8 sequence.
enum LineFolder {
    static let limit = 75

    static func fold(_ line: String, into output: inout [UInt8]) {
        var line = line
        line.withUTF8 { fold(bytes: $0, into: &output) }
    }

    private static func fold(bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var start = 0
        var budget = limit
        while bytes.count - start > budget {
            var cut = start + budget
            while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }   // stay before a continuation byte
            output.append(contentsOf: bytes[start..<cut])
            output.append(contentsOf: [13, 10, 32])
            start = cut
            budget = limit - 1
        }
        output.append(contentsOf: bytes[start...])
        output.append(contentsOf: [13, 10])
    }
}

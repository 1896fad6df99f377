import Crypto
import Foundation

/// SHA-256 as lower-case hex: token hashes, image names and ETags all use this one helper.
public enum SHA256Hex {
    public static func of(_ bytes: some DataProtocol) -> String {
        hex(SHA256.hash(data: bytes))
    }

    public static func of(_ text: String) -> String { of(Data(text.utf8)) }

    /// The first `count` bytes of the digest, as hex (ETags need no more than 128 bits).
    public static func prefix(_ bytes: some DataProtocol, bytes count: Int) -> String {
        hex(SHA256.hash(data: bytes).prefix(count))
    }

    /// `prefix(_:bytes:)` of the parts joined, without joining them.
    public static func prefix(parts: [[UInt8]], bytes count: Int) -> String {
        var hasher = SHA256()
        for part in parts { hasher.update(data: part) }
        return hex(hasher.finalize().prefix(count))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

import Countdowns
import Crypto
import Foundation

/// A secret that opens one private feed. Only its hash is stored; the token
/// itself is shown once, when created.
public struct FeedToken: Sendable, Hashable, Codable {
    public var id: Int64
    public var feed: String
    public var label: String
    /// How much of the feed this link shows.
    public var visibility: Visibility
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    public init(id: Int64, feed: String, label: String, visibility: Visibility = .full, createdAt: Date, lastUsedAt: Date? = nil,
                revokedAt: Date? = nil) {
        self.id = id
        self.feed = feed
        self.label = label
        self.visibility = visibility
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

public enum Secret {
    /// 128 bits or more from the system CSPRNG, base64url without padding (22 characters for 16 bytes).
    public static func generate(bytes: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        let raw = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(raw)
    }

    public static func hash(_ secret: String) -> String {
        SHA256Hex.of(secret)
    }

    /// Compares two equal-length strings without an early exit.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        constantTimeEquals(Array(a.utf8), Array(b.utf8))
    }

    /// Compares two byte strings in time that depends on their length only: a
    /// forged MAC learns nothing from how long the comparison took.
    public static func constantTimeEquals(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

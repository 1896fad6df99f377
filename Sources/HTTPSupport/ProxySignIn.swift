import Foundation
import Subscriptions

/// Sign-in by an authenticating proxy in front of the web app (Authelia,
/// oauth2-proxy, nginx `auth_basic`): a request whose TCP peer is one of
/// `trusted` and that carries `header` is signed in as the person with that
/// login. The header from any other peer is ignored, so a client cannot
/// name itself; the proxy must set (or strip) the header on every request.
public struct ProxySignIn: Sendable, Equatable {
    /// Addresses and ranges (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`) the proxy connects from.
    public var trusted: [AddressRange]
    /// The header the proxy names the person in (`Remote-User`).
    public var header: String
    /// `--proxy-creates-accounts`: a login the proxy names that nobody has yet becomes a new person.
    public var createsAccounts: Bool

    public init(trusted: [AddressRange], header: String, createsAccounts: Bool = false) {
        self.trusted = trusted
        self.header = header
        self.createsAccounts = createsAccounts
    }

    /// Whether `peer` (the TCP peer's address, as NIO writes it) is a trusted proxy.
    public func trusts(_ peer: String?) -> Bool {
        guard let peer, let bytes = AddressRange.bytes(of: peer) else { return false }
        return trusted.contains { $0.contains(bytes) }
    }
}

/// An address, or a range of them in CIDR notation.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    public var network: [UInt8]
    public var prefix: Int

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public init(_ text: String) throws(Invalid) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let bytes = Self.bytes(of: first) else {
            throw Invalid(description: "'\(text.prefix(60))' is not an address or range (such as 127.0.0.1, 10.0.0.0/8 or fd00::/8)")
        }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else {
                throw Invalid(description: "'\(text.prefix(60))': the prefix length must be 0 to \(bits)")
            }
            prefix = given
        }
        network = bytes
        self.prefix = prefix
    }

    public var description: String { "\(network.count == 4 ? network.map(String.init).joined(separator: ".") : "IPv6")/\(prefix)" }

    /// Four bytes for IPv4, sixteen for IPv6; an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is its IPv4 address.
    public static func bytes(of text: String) -> [UInt8]? {
        if let v4 = AddressPolicy.IPv4(text) { return v4.octets }
        guard let v6 = AddressPolicy.IPv6(text) else { return nil }
        if v6.bytes[0..<10].allSatisfy({ $0 == 0 }), v6.bytes[10] == 0xFF, v6.bytes[11] == 0xFF { return Array(v6.bytes[12..<16]) }
        return v6.bytes
    }

    public func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var left = prefix
        for (a, b) in zip(address, network) where left > 0 {
            let bits = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard a & mask == b & mask else { return false }
            left -= bits
        }
        return true
    }
}

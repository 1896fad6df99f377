import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Which hosts an outbound fetch (a URL source, a `{"url"}` import) may reach.
///
/// Anyone who can name a URL to tminus could otherwise make the server fetch
/// from places only it can reach: its own loopback services, the cloud
/// metadata address 169.254.169.254, the private network behind it. So by
/// default every address the host resolves to must be public; a decimal or
/// hex spelling (`2130706433`) resolves like any other name and is caught the
/// same way. `--allow-private-sources` lets a home server fetch from its LAN.
package struct AddressPolicy: Sendable {
    package var allowPrivate: Bool

    package init(allowPrivate: Bool) {
        self.allowPrivate = allowPrivate
    }

    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// Resolves `host` and returns one address to connect to, or says which rule refused it.
    package func resolve(_ host: String, port: Int) throws -> String {
        let addresses = try Self.lookup(host, port: port)
        guard let first = addresses.first else { throw Refusal(description: "\(host) does not resolve to any address") }
        if !allowPrivate {
            for address in addresses {
                if let reason = Self.nonPublicReason(address) {
                    throw Refusal(description: "\(host) resolves to \(address), a \(reason) address; fetching from it is refused (start the server with --allow-private-sources to allow it)")
                }
            }
        }
        return first
    }

    /// Why an address is not public, or nil when it is.
    package static func nonPublicReason(_ address: String) -> String? {
        if let v4 = IPv4(address) { return v4.nonPublicReason }
        guard let v6 = IPv6(address) else { return "unparseable" }
        if let (v4, form) = v6.embeddedIPv4 {
            guard let reason = v4.nonPublicReason else { return v6.nonPublicReason }
            return "\(reason) (\(v4.octets.map(String.init).joined(separator: ".")) inside a \(form) address)"
        }
        return v6.nonPublicReason
    }

    private static func lookup(_ host: String, port: Int) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let result else { throw Refusal(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(result) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = result
        while let info = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(info.pointee.ai_addr, info.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(text) { addresses.append(text) }
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    package struct IPv4 {
        package var octets: [UInt8]

        package init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            let values = parts.compactMap { UInt8($0) }
            guard values.count == 4 else { return nil }
            octets = values
        }

        package init(octets: [UInt8]) { self.octets = octets }

        package var nonPublicReason: String? {
            let (a, b) = (octets[0], octets[1])
            switch (a, b) {
            case (0, _): return "unspecified"
            case (127, _): return "loopback"
            case (10, _), (172, 16...31), (192, 168): return "private"
            case (100, 64...127): return "shared (carrier-grade NAT)"
            case (169, 254): return "link-local"
            case (192, 0) where octets[2] == 0: return "reserved"
            case (198, 18...19): return "benchmarking"
            case (224...239, _): return "multicast"
            case (240...255, _): return "reserved"
            default: return nil
            }
        }
    }

    package struct IPv6 {
        package var bytes: [UInt8]

        package init?(_ text: String) {
            var address = in6_addr()
            let plain = text.split(separator: "%").first.map(String.init) ?? text   // drop a zone index
            guard inet_pton(AF_INET6, plain, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        }

        /// The IPv4 address that an IPv6 address carries and that a packet to it
        /// reaches: mapped (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`,
        /// RFC 2765), NAT64 (`64:ff9b::a.b.c.d`, RFC 6052), 6to4 (`2002:aabb:ccdd::`,
        /// RFC 3056) and Teredo's client (`2001:0::`, RFC 4380, inverted bits).
        /// Each is judged by its IPv4 address: `64:ff9b::127.0.0.1` is loopback
        /// wherever a NAT64 gateway sits.
        package var embeddedIPv4: (IPv4, form: String)? {
            let zeros = { (range: Range<Int>) in bytes[range].allSatisfy { $0 == 0 } }
            if zeros(0..<10), bytes[10] == 0xFF, bytes[11] == 0xFF { return (IPv4(octets: Array(bytes[12..<16])), "mapped") }
            if zeros(0..<8), bytes[8] == 0xFF, bytes[9] == 0xFF, zeros(10..<12) { return (IPv4(octets: Array(bytes[12..<16])), "translated") }
            if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B], zeros(4..<12) { return (IPv4(octets: Array(bytes[12..<16])), "NAT64") }
            if bytes[0] == 0x20, bytes[1] == 0x02 { return (IPv4(octets: Array(bytes[2..<6])), "6to4") }
            if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] { return (IPv4(octets: bytes[12..<16].map { $0 ^ 0xFF }), "Teredo") }
            return nil
        }

        package var nonPublicReason: String? {
            if bytes.allSatisfy({ $0 == 0 }) { return "unspecified" }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "loopback" }
            if bytes[0] == 0xFF { return "multicast" }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "link-local" }
            if bytes[0] & 0xFE == 0xFC { return "private (unique local)" }
            if bytes[0..<12].allSatisfy({ $0 == 0 }) { return "IPv4-compatible" }
            if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return "local NAT64" }
            if bytes[0] == 0x01, bytes[1] == 0x00, bytes[2..<8].allSatisfy({ $0 == 0 }) { return "discard-only" }
            if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return "documentation" }
            return nil
        }
    }
}

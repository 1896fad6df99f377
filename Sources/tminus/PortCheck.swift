import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether `serve` can listen where it was asked, checked before anything is
/// opened, imported or fetched (issue #40): a busy port used to be found only
/// after every source was imported, and said as NIO's bind error.
enum PortCheck {
    /// Why the server cannot listen on `host`:`port`; nil when it can (or when that cannot be told here).
    static func problem(host: String, port: Int) -> String? {
        guard port > 0, port <= 65_535 else { return nil }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            return "--host \(host) is not an address of this machine (an IP address, localhost, or 0.0.0.0 for every address)"
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var yes: Int32 = 1
        // As the server binds: a port in TIME_WAIT after a restart is free to it.
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 else { return nil }
        switch errno {
        case EADDRINUSE: return "port \(port) is in use (another tminus? `ss -ltnp 'sport = :\(port)'` names it; --port chooses another)"
        case EACCES: return "port \(port) needs root or CAP_NET_BIND_SERVICE (ports under 1024); use --port 8080 behind a proxy"
        case EADDRNOTAVAIL: return "--host \(host) is not an address of this machine"
        default: return "cannot listen on \(host):\(port): \(String(cString: strerror(errno)))"
        }
    }
}

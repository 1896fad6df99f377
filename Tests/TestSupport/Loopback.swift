import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Raw HTTP on loopback, for tests that need to send what a well-behaved
/// client never would (half a request, a body that drips) or that run without
/// FoundationNetworking.
public enum Loopback {
    /// Opens a connection to 127.0.0.1:`port`, sends `send` (then nothing), and
    /// returns how long the server kept it open and what it sent back; nil
    /// when nothing listens. Reading stops after `timeout` seconds of silence.
    public static func exchange(port: Int, send text: String, timeout: Int = 15) -> (seconds: Double, answer: String)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), 0) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let started = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var answer: [UInt8] = []
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer.prefix(count)
        }
        return (Date().timeIntervalSince(started), String(decoding: answer, as: UTF8.self))
    }

    /// `exchange` on a thread of its own: a blocking socket read on Swift's
    /// cooperative pool (two threads on a two-core machine) stalls every server
    /// and client of the test process for as long as it waits.
    public static func exchangeOffPool(port: Int, send text: String, timeout: Int = 15) async -> (seconds: Double, answer: String)? {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: exchange(port: port, send: text, timeout: timeout)) }
            thread.start()
        }
    }

    /// A GET with `Connection: close`: the whole answer, or nil when nothing listens.
    public static func get(port: Int, path: String) async -> String? {
        await exchangeOffPool(port: port, send: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout: 5)?.answer
    }

    /// Whether something accepts connections on 127.0.0.1:`port` (connects, sends nothing, closes).
    public static func isListening(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A port nothing listens on now, from the kernel (bind to port 0): a random pick
    /// could land on a port an outgoing connection holds, where a server cannot listen.
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A socket listening on 127.0.0.1 at a port the kernel chose, and that port:
    /// a port in use, for as long as the caller keeps the socket (`close` it).
    public static func occupiedPort() -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

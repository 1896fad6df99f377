import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `tminus` binary, run in a folder of its own that is removed afterwards.
struct Tminus {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs the binary in the folder; returns its exit status, standard output and standard error.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try #require(Corpus.tminusBinary)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe()
        // Standard error goes to a file, so that neither stream can fill a pipe and stall the child.
        let errPath = path(".stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let err = try #require(FileHandle(forWritingAtPath: errPath))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// A calendar with one all-day and one timed event, written into the folder.
    func calendar(_ name: String = "in.ics", header: String = "") throws -> String {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//cli//EN\r\n\(header)BEGIN:VEVENT\r\nUID:all-day@tests\r
            DTSTAMP:20260101T000000Z\r\nSUMMARY:Sports day\r\nDTSTART;VALUE=DATE:20260310\r\nEND:VEVENT\r\nBEGIN:VEVENT\r
            UID:timed@tests\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Concert\r\nDTSTART:20260310T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}


/// A GET on loopback over a plain socket (Foundation's URL loading needs
/// FoundationNetworking): the whole answer, or nil when nothing listens.
func loopbackGet(port: Int, path: String) -> String? {
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
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), 0) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { break }
        answer += buffer.prefix(count)
    }
    return String(decoding: answer, as: UTF8.self)
}

import Foundation
import Synchronization
import Testing

/// A child process run to its end without holding a thread while it runs.
///
/// Swift's cooperative pool has one thread per core (two in CI), and the whole
/// suite shares it: a test that blocked in `waitUntilExit()` or
/// `readDataToEndOfFile()` held one for as long as its child ran. Two such
/// tests left no thread for the servers other tests were running, and a 2 s
/// fetch deadline was heard after 6–11 s (issue #35, 9). Output goes to files
/// (neither stream can fill a pipe and stall the child), and the exit is
/// awaited through the termination handler.
public enum ChildRun {
    public struct Result: Sendable, CustomStringConvertible {
        public var status: Int32
        public var out: String
        public var err: String
        public var description: String { "exit \(status)\nstdout: \(out.prefix(2_000))\nstderr: \(err.prefix(2_000))" }
    }

    /// Runs `executable` with `arguments` (in `directory`, with `environment`
    /// added to this process's), writes `input` to its standard input, and
    /// returns its exit status and output once it has exited.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
                           directory: URL? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let folder = FileManager.default.temporaryDirectory
        let outPath = folder.appendingPathComponent("tminus-child-\(UUID().uuidString).out").path
        let errPath = folder.appendingPathComponent("tminus-child-\(UUID().uuidString).err").path
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        let out = try #require(FileHandle(forWritingAtPath: outPath)), err = try #require(FileHandle(forWritingAtPath: errPath))
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let exit = Signal()
        process.terminationHandler = { _ in exit.fire() }
        try ChildProcesses.start(process)
        if let input {
            // Written on a thread of its own: a large input must not hold a pool thread while the child reads it.
            let handle = stdin.fileHandleForWriting
            Thread.detachNewThread {
                handle.write(input)
                try? handle.close()
            }
        }
        await exit.wait()
        try out.close()
        try err.close()
        let outData = FileManager.default.contents(atPath: outPath) ?? Data()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Result(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }
}

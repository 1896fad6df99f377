import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every process a test starts goes through `start`, which writes its PID
/// beside the test process's own. A test stops its children by PID when it
/// ends. A test process that crashes runs no cleanup, though, and its servers
/// live on, so each `start` first stops the children of test processes that
/// are gone. PIDs are checked against the executable they were started as,
/// so a reused PID is never touched.
public enum ChildProcesses {
    static let registry = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-test-children.txt").path
    private static let lock = Mutex(())

    /// Runs `process`, after stopping what crashed test runs left running.
    public static func start(_ process: Process) throws {
        try lock.withLock { _ in
            stopOrphans()
            try process.run()
            let executable = process.executableURL?.resolvingSymlinksInPath().path ?? ""
            let line = "\(process.processIdentifier) \(getpid()) \(executable)\n"
            if let handle = FileHandle(forWritingAtPath: registry) ?? create() {
                handle.seekToEndOfFile()
                handle.write(Data(line.utf8))
                try? handle.close()
            }
        }
    }

    private static func create() -> FileHandle? {
        _ = FileManager.default.createFile(atPath: registry, contents: nil)
        return FileHandle(forWritingAtPath: registry)
    }

    /// Kills the registered children whose test process has exited, and keeps
    /// only the entries of test processes still running.
    private static func stopOrphans() {
        guard let text = try? String(contentsOfFile: registry, encoding: .utf8) else { return }
        var kept: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count == 3, let child = pid_t(fields[0]), let owner = pid_t(fields[1]) else { continue }
            if isAlive(owner) {
                kept.append(String(line))
            } else if isAlive(child), executable(of: child) == fields[2] {
                kill(child, SIGKILL)
            }
        }
        try? (kept.map { $0 + "\n" }.joined()).write(toFile: registry, atomically: true, encoding: .utf8)
    }

    private static func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    private static func executable(of pid: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }
}

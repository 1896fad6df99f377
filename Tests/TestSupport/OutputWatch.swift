import Foundation
import Synchronization

/// A child's standard output and error, copied into a file as they come, and
/// a wait for a line to appear there ("Server started and listening"): a test
/// hears the moment a server is ready instead of asking it every 100 ms.
public final class OutputWatch: Sendable {
    private let pipe = Pipe()
    private let seen = Mutex<(text: String, wanted: [(String, Signal)], closed: Bool)>(("", [], false))
    /// Fired when the child has closed its output (it exited): everything it wrote is in the file.
    public let ended = Signal()

    /// Copies what the child writes into `file` (created or emptied).
    public init(file: String) throws {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        // The handler holds the watch until the child's output ends (then it lets go of itself).
        pipe.fileHandleForReading.readabilityHandler = { [self] reading in
            let data = reading.availableData
            guard !data.isEmpty else {
                reading.readabilityHandler = nil
                try? handle.close()
                // The child exited: no line is coming any more, so every wait ends now.
                let waiting = self.seen.withLock { state -> [Signal] in
                    state.closed = true
                    defer { state.wanted = [] }
                    return state.wanted.map(\.1)
                }
                for signal in waiting { signal.fire() }
                ended.fire()
                return
            }
            handle.write(data)
            let ready = self.seen.withLock { state -> [Signal] in
                state.text += String(decoding: data, as: UTF8.self)
                let text = state.text
                let ready = state.wanted.filter { text.contains($0.0) }.map(\.1)
                state.wanted.removeAll { text.contains($0.0) }
                return ready
            }
            for signal in ready { signal.fire() }
        }
    }

    /// Starts `process` with its standard output and error here; this
    /// process's copy of the pipe's writing end is closed, so that the child's
    /// exit ends the output (`ended`).
    public func start(_ process: Process) throws {
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = pipe.fileHandleForWriting
        try ChildProcesses.start(process)
        try pipe.fileHandleForWriting.close()
    }

    /// True once `text` has appeared; false when the child exits without
    /// writing it. A child that lives on without writing it is ended by the
    /// test's time limit (`.timeLimit`), not by a timer here.
    public func wait(for text: String) async -> Bool {
        let signal = Signal()
        let already = seen.withLock { state -> Bool in
            if state.text.contains(text) || state.closed { return true }
            state.wanted.append((text, signal))
            return false
        }
        if !already { await signal.wait() }
        return seen.withLock { $0.text.contains(text) }
    }
}

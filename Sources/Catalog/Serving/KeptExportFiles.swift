import CountdownStore
import Foundation
import Logging
import NIOCore
import Synchronization

/// The kept exports this server has read, as files on its own disk, with
/// what says which revision they are in memory: a feed not compiled answers
/// `.ics` with one `read` of a file instead of the store's row.
///
/// Why: a random-feed read across 10,000 feeds (issue #41) cost 133–165 µs
/// of CPU a miss through SQLite (its lookup, fifteen `pread`s of 4 KB
/// overflow pages, the quick reader, the row's decoding), against 75–93 µs
/// from a file, measured in the same server (random / cached 0.34–0.48×
/// against 0.58–0.72×). The store stays the record: a file is written only
/// from bytes read from it for one revision and variant, and served only for
/// that revision and variant, as the render cache serves them; files of a
/// server that stopped are removed by the next one to start beside them.
///
/// Files live in a folder of this process under `parent`
/// (`tminus-exports-PID-RANDOM`, beside the SQLite database by default: on
/// disk rather than in a `/tmp` that may be memory);
/// at most `budgetBytes` of them: past it, a miss reads the store as before.
package final class KeptExportFiles: Sendable {
    /// One file: what it holds and for which revision and variant.
    private struct Entry: Sendable {
        var revision: Int64
        var variant: String
        var etag: String
        var length: Int
        var gzippedEtag: String?
        var gzippedLength: Int
        var number: Int
        var bytes: Int { length + gzippedLength }
    }

    private struct State {
        var entries: [FeedCatalog.CompiledKey: Entry] = [:]
        var bytes = 0
        var next = 0
    }

    /// This process's folder.
    package let directory: String
    private let budgetBytes: Int
    private let state = Mutex(State())
    private let reads = Atomic<Int>(0)
    private let logger: Logger

    /// A folder of this process in `parent` (made if missing, mode 0700), after
    /// removing the folders of servers no longer running (nothing else there
    /// is touched); nil, with a warning, when it cannot be made (a read-only
    /// disk): misses then read the store.
    package static func open(in parent: String, budgetBytes: Int, logger: Logger) -> KeptExportFiles? {
        guard budgetBytes > 0 else { return nil }
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for name in (try? files.contentsOfDirectory(atPath: parent)) ?? [] {
                guard let pid = folderPID(name), !isRunning(pid) else { continue }
                try? files.removeItem(atPath: parent + "/" + name)
            }
            let directory = parent + "/\(folderPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try files.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            return KeptExportFiles(directory: directory, budgetBytes: budgetBytes, logger: logger)
        } catch {
            logger.warning("cannot keep exports as files; misses read the store", metadata: ["folder": "\(parent)", "error": "\(error)"])
            return nil
        }
    }

    private init(directory: String, budgetBytes: Int, logger: Logger) {
        self.directory = directory
        self.budgetBytes = budgetBytes
        self.logger = logger
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What a server's folder is called before its process ID and a random number.
    private static let folderPrefix = "tminus-exports-"

    /// The process ID in the name of a server's folder (`tminus-exports-PID-RANDOM`),
    /// nil for anything else: the parent may be a folder others use too
    /// (`--export-files-dir`), and only such folders are a server's to remove.
    private static func folderPID(_ name: String) -> pid_t? {
        guard name.hasPrefix(folderPrefix) else { return nil }
        let parts = name.dropFirst(folderPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// How many misses a file answered since start (tests read it).
    package var fileReads: Int { reads.load(ordering: .relaxed) }

    /// How many files, and their bytes.
    package var usage: (files: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

    /// The bytes kept for `key` at `revision` and `variant`, or nil (none kept,
    /// another revision, or the file could not be read: then forgotten).
    package func read(_ key: FeedCatalog.CompiledKey, revision: Int64, variant: String) -> KeptExport.Bytes? {
        guard let entry = state.withLock({ $0.entries[key] }), entry.revision == revision, entry.variant == variant else { return nil }
        guard var buffer = Self.contents(of: path(entry.number), length: entry.bytes),
              let body = buffer.readSlice(length: entry.length) else {
            forget(key, number: entry.number)
            return nil
        }
        let gzipped = entry.gzippedLength > 0 ? buffer.readSlice(length: entry.gzippedLength) : nil
        reads.add(1, ordering: .relaxed)
        return KeptExport.Bytes(body: body, etag: entry.etag, gzipped: gzipped, gzippedEtag: gzipped == nil ? nil : entry.gzippedEtag)
    }

    /// Writes `bytes` (read from the store for `key` at `revision` and
    /// `variant`) as the file for `key`, replacing one of another revision;
    /// nothing when they would pass the budget or the write fails.
    package func keep(_ key: FeedCatalog.CompiledKey, revision: Int64, variant: String, bytes: KeptExport.Bytes) {
        let gzipped = bytes.gzippedEtag == nil ? nil : bytes.gzipped
        let length = bytes.body.readableBytes, gzippedLength = gzipped?.readableBytes ?? 0
        guard length == bytes.length else { return }   // a summary without its body
        let number: Int? = state.withLock { state in
            let replaced = state.entries[key]
            if let replaced, replaced.revision == revision, replaced.variant == variant { return nil }
            guard state.bytes - (replaced?.bytes ?? 0) + length + gzippedLength <= budgetBytes else { return nil }
            state.next += 1
            return state.next
        }
        guard let number else { return }
        let path = path(number)
        guard Self.write([bytes.body, gzipped].compactMap { $0 }, to: path) else {
            logger.warning("cannot write a kept export's file; misses of it read the store", metadata: ["feed": "\(key.slug)", "file": "\(path)"])
            unlink(path)
            return
        }
        let entry = Entry(revision: revision, variant: variant, etag: bytes.etag, length: length, gzippedEtag: bytes.gzippedEtag,
                          gzippedLength: gzippedLength, number: number)
        let removed: Int? = state.withLock { state in
            let replaced = state.entries[key]
            // Another keep of this key finished first with a newer file: this one goes.
            if let replaced, replaced.number > number { return number }
            guard state.bytes - (replaced?.bytes ?? 0) + entry.bytes <= budgetBytes else { return number }
            state.entries[key] = entry
            state.bytes += entry.bytes - (replaced?.bytes ?? 0)
            return replaced?.number
        }
        if let removed { unlink(self.path(removed)) }
    }

    private func forget(_ key: FeedCatalog.CompiledKey, number: Int) {
        let forgotten = state.withLock { state -> Bool in
            guard let entry = state.entries[key], entry.number == number else { return false }
            state.entries[key] = nil
            state.bytes -= entry.bytes
            return true
        }
        if forgotten {
            logger.warning("a kept export's file could not be read; misses of it read the store", metadata: ["feed": "\(key.slug)"])
            unlink(path(number))
        }
    }

    private func path(_ number: Int) -> String { directory + "/\(number)" }

    /// Exactly `length` bytes of the file at `path`, in one buffer of that size; nil if it is shorter or cannot be read.
    private static func contents(of path: String, length: Int) -> ByteBuffer? {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return ByteBuffer.exactly(count: length) { region in
            var offset = 0
            while offset < region.count {
                let got = Foundation.read(descriptor, region.baseAddress! + offset, region.count - offset)
                if got > 0 {
                    offset += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    return false   // shorter than kept, or unreadable
                }
            }
            return true
        }
    }

    /// Writes `parts` one after another to a new file at `path`.
    private static func write(_ parts: [ByteBuffer], to path: String) -> Bool {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        for part in parts {
            let written = part.withUnsafeReadableBytes { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 { if errno == EINTR { continue } else { return false } }
                    offset += count
                }
                return true
            }
            guard written else { return false }
        }
        return true
    }
}

import SQLiteStore
import ArgumentParser
import CountdownStore
import Foundation
import StoreFactory

/// `tminus backup`: a consistent copy of everything, made while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole database into a new SQLite file, while the server keeps running.",
        discussion: """
            SQLite: one consistent snapshot (VACUUM INTO), compact, owner-only (0600), checked with integrity_check, \
            written under a temporary name and renamed when whole. PostgreSQL: the same rows `tminus copy` copies, \
            in one snapshot, into a new SQLite file (no pg_dump needed). Restore it with `tminus restore`.

            A nightly backup with cron (keeps a week):
              15 3 * * * tminus backup --db /var/lib/tminus/tminus.sqlite --to /var/backups/tminus/$(date +\\%a).sqlite --force
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: ArgumentHelp("The backup file to create.", valueName: "file")) var to: String
    @Flag(help: "Replace the backup file when it exists (the new copy is made first, then renamed over it).") var force = false

    func run() throws {
        try reportingErrors {
            let location = try store.location()
            if !force, FileManager.default.fileExists(atPath: to) { throw CLIError("\(to) already exists; name a new file, or pass --force to replace it", status: .ioError) }
            let started = Date()
            let partial = to + ".new-\(ProcessInfo.processInfo.processIdentifier)"
            let target = force ? partial : to
            switch location {
            case .sqlite(let path):
                guard FileManager.default.fileExists(atPath: path) else { throw CLIError("--db \(path): no such database file", status: .noInput) }
                do { try SQLiteBackup.copy(path, to: target) } catch { throw CLIError(ErrorText.describe(error), status: .ioError) }
            case .memory:
                throw CLIError("--db \(DatabaseLocation.memoryName) holds nothing to back up: name a SQLite file or a postgres:// URL", status: .usage)
            case .postgres:
                guard !FileManager.default.fileExists(atPath: target) else {
                    throw CLIError("\(target) already exists; name a new file, or pass --force", status: .ioError)
                }
                let snapshot = try await store.withStore(.reading) { try await $0.snapshot() }
                let writing = try SQLiteCountdownStore(path: target)
                do { try await writing.restore(snapshot); try await writing.close() } catch {
                    try? await writing.close()
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
                    throw error
                }
            }
            if force, rename(partial, to) != 0 {
                throw CLIError("cannot replace \(to): \(String(cString: strerror(errno)))", status: .ioError)
            }
            let copy = try SQLiteCountdownStore(path: to)
            let feeds = try await copy.feeds()
            try await copy.close()
            let size = (try? FileManager.default.attributesOfItem(atPath: to)[.size] as? Int) ?? 0
            print("backed up \(feeds.count.counted("feed")) (\(feeds.reduce(0) { $0 + $1.countdownCount }.counted("countdown"))) from \(location) to \(to), "
                  + "\(ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file))" + String(format: " in %.1f s", Date().timeIntervalSince(started)))
        }
    }
}

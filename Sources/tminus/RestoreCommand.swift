import SQLiteStore
import ArgumentParser
import CountdownStore
import Foundation

/// `tminus restore`: a backup made by `tminus backup` back into a database.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup made by `tminus backup` into a database.",
        discussion: """
            The target must hold no feeds, so that a restore never mixes two installations or overwrites one by mistake. \
            --replace lets a SQLite target be replaced whole: stop the server first (a server left running notices that \
            its file was replaced, says so in /healthz and /api/health, and refuses writes until restarted). A PostgreSQL \
            target is only ever restored into: drop and create the database to start again.
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: ArgumentHelp("The backup file.", valueName: "file")) var from: String
    @Flag(help: "Replace a SQLite database that already holds feeds.") var replace = false

    func run() throws {
        try reportingErrors {
            guard FileManager.default.fileExists(atPath: from) else { throw CLIError("--from \(from): no such backup file", status: .noInput) }
            let location = try store.location()
            let started = Date()
            // The backup is read (read-only, nothing in it run) into a private copy, whose
            // foreign triggers and views are dropped before it is opened: opening brings an
            // older backup's schema up to date, and that must neither change the backup nor
            // fire what it brought. Only its rows go on, into tminus's own schema.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-restore-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch + suffix) } }
            var leftOut: [String]
            let known = try SQLiteBackup.ownObjects()
            do { leftOut = try SQLiteBackup.prepareForRestore(from, scratch: scratch, known: known) } catch { throw CLIError("--from \(from): \(error)") }
            let backup = try SQLiteCountdownStore(path: scratch)
            let snapshot = try await backup.snapshot()
            try await backup.close()
            leftOut += (try? SQLiteBackup.foreignObjects(in: scratch, known: known)) ?? []
            if !leftOut.isEmpty {
                FileHandle.standardError.write(Data("tminus restore: left out what tminus does not make: \(leftOut.joined(separator: ", "))\n".utf8))
            }

            let held = try await store.withStore { target in
                let held = try await target.feeds()
                if held.isEmpty { try await target.restore(snapshot) }
                return held
            }
            if !held.isEmpty {
                guard replace else {
                    throw CLIError("\(location) already holds \(held.count) feeds; nothing was changed. Restore into an empty database, "
                                   + "or pass --replace to replace a SQLite file whole (stop the server first)")
                }
                guard case .sqlite(let path) = location else {
                    throw CLIError("--replace works on a SQLite file only; for PostgreSQL, drop and create the database, then restore into it", status: .usage)
                }
                do { try await SQLiteBackup.replace(path, with: snapshot) } catch { throw CLIError(ErrorText.describe(error), status: .ioError) }
            }
            let feeds = try await store.withStore { try await $0.feeds() }
            print("restored \(feeds.count.counted("feed")) (\(feeds.reduce(0) { $0 + $1.countdownCount }.counted("countdown"))) from \(from) into \(location)"
                  + String(format: " in %.1f s", Date().timeIntervalSince(started)))
        }
    }
}

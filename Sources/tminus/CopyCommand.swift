import ArgumentParser
import CountdownStore
import Foundation
import StoreFactory

/// `tminus copy`: moves a whole installation from one store to another, in
/// practice from the SQLite file to PostgreSQL when one machine is not enough.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy everything from one database to another (SQLite to PostgreSQL, or back).",
        discussion: """
            Copies feeds, countdowns, categories, sources and their fetch state, images, feed tokens, the admin \
            token's hash, the web app's password and sessions: row for row, with the same ids, stamps and \
            revisions, so that both databases then serve byte-identical calendars and the same ETags, and \
            subscribed clients notice nothing. The copy is one transaction: it is wholly there or not at all. \
            The target must hold no feeds yet (a new database; `serve` and `migrate` may have prepared it).
            Stop the servers that write to the source first, or changes made meanwhile are not copied.
            Logins saved in the web app for subscribed addresses are left out unless --with-logins is given; \
            copied, they open only on a server given the same --secrets-key-file.

            Examples:
              tminus copy --from tminus.sqlite --to postgres://tminus@db.internal/tminus
              tminus copy --from postgres://tminus@db.internal/tminus --to backup.sqlite
            """
    )

    @Option(help: "The database to copy from (a SQLite file or a postgres:// URL).") var from: String
    @Option(help: "The database to copy into (empty; created or migrated as needed).") var to: String
    @Flag(help: "Copy the logins saved in the web app too (sealed; the target's servers need the same secrets key file).")
    var withLogins = false

    func run() throws {
        try reportingErrors {
            let source = try DatabaseLocation(from), target = try DatabaseLocation(to)
            if let path = source.path, !FileManager.default.fileExists(atPath: path) { throw CLIError("--from \(path): no such database file", status: .noInput) }
            let started = Date()
            var snapshot = try await source.withStore(logger: source.path == nil ? StoreOptions.quietLogger : nil) { try await $0.snapshot() }
            if !withLogins, case let left = snapshot.blank("login", in: "source"), left > 0 {
                printError("copy: \(left.counted("login")) saved in the web app left out; --with-logins copies them (they open only with the same secrets key)")
            }
            let summary = snapshot.counts.filter { $0.rows > 0 }.map { "\($0.rows) \($0.table)" }.joined(separator: ", ")
            printError("copy: read \(summary) from \(source)")
            let copied = try await target.withStore(logger: target.path == nil ? StoreOptions.quietLogger : nil) { writing in
                try await writing.restore(snapshot)
                return try await writing.feeds()
            }
            print("copied \(copied.count.counted("feed")) (\(copied.reduce(0) { $0 + $1.countdownCount }.counted("countdown"))) from \(source) to \(target)"
                  + String(format: " in %.1f s", Date().timeIntervalSince(started)))
        }
    }
}

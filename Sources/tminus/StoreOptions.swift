import ArgumentParser
import CountdownStore
import Foundation
import Logging
import Services
import StoreFactory

/// `--db`, shared by every command that touches the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite database file, or a postgres:// URL (env: TMINUS_DB).",
                                            discussion: """
                                                Default: $TMINUS_DB, or ./tminus.sqlite. PostgreSQL: postgres://USER@HOST[:PORT]/DATABASE, or \
                                                postgres://USER@/DATABASE?host=/run/postgresql for a Unix socket; the password may come from $PGPASSWORD. \
                                                :memory: keeps everything in memory and writes nothing (a dry run of an import, or a trial server).
                                                """))
    var db: String?

    /// Warnings and errors only: a command's own output is what the user asked for.
    static var quietLogger: Logger {
        var logger = Logger(label: "tminus")
        logger.logLevel = .warning
        return logger
    }

    var value: String { db ?? ProcessInfo.processInfo.environment["TMINUS_DB"] ?? "tminus.sqlite" }

    func location() throws -> DatabaseLocation {
        do { return try DatabaseLocation(value) } catch { throw CLIError("--db: \(error)") }
    }

    /// Opens the store (migrating it), runs `body` with it, and closes it.
    /// Quiet unless something goes wrong; a store that cannot be opened is
    /// named in the error.
    /// `creating: false` (commands that only read) refuses a SQLite file that
    /// does not exist, instead of making an empty database under a misspelt name.
    func withStore<T>(creating: Bool = true, _ body: (any CountdownStore) async throws -> T) async throws -> T {
        let location = try location()
        if !creating, let path = location.path, !FileManager.default.fileExists(atPath: path) {
            throw CLIError("no database at \(path) (`tminus import FILE --feed NAME` or `tminus add` creates one; --db names another)")
        }
        var opened = false
        do {
            return try await location.withStore(logger: location.path == nil ? Self.quietLogger : nil) { store in
                opened = true
                return try await body(store)
            }
        } catch where !opened {
            throw CLIError("cannot open the database \(location): \(error)")
        }
    }

    /// The use cases over the opened store: what every command that writes calls.
    func withService<T>(limits: StoreLimits = StoreLimits(), creating: Bool = true, _ body: (CountdownService) async throws -> T) async throws -> T {
        try await withStore(creating: creating) { store in try await body(CountdownService(store: store, limits: limits).acting(as: .commandLine)) }
    }
}

/// Runs a command body, turning store and input errors into one line on stderr and exit code 1.
func reportingErrors(_ body: @escaping () async throws -> Void) throws {
    do {
        try waitFor(body)
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

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
        do { return try DatabaseLocation(value) } catch { throw CLIError("--db: \(error)", status: .usage) }
    }

    /// Opens the store (migrating it), runs `body` with it, and closes it.
    /// Quiet unless something goes wrong; a store that cannot be opened is
    /// named in the error. Only commands that write may create a database:
    /// the others refuse a SQLite file that does not exist, instead of making
    /// an empty one under a misspelt name (issue #40).
    func withStore<T>(_ access: StoreAccess = .creating, _ body: (any CountdownStore) async throws -> T) async throws -> T {
        let location = try location()
        if let path = location.path {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue { throw CLIError("--db \(path) is a folder, not a database file (name a file in it: --db \(path)/tminus.sqlite)", status: .usage) }
            if !exists, access != .creating {
                throw CLIError("no database at \(path) (`tminus import FILE --feed NAME` or `tminus add` creates one; --db names another)", status: .noInput)
            }
        }
        var opened = false
        do {
            return try await location.withStore(clock: CommandClock.now, logger: location.path == nil ? Self.quietLogger : nil,
                                                readOnly: access == .reading) { store in
                opened = true
                return try await body(store)
            }
        } catch let error as StoreError where !opened {
            throw error
        } catch where !opened {
            throw CLIError("cannot open the database \(location): \(ErrorText.describe(error))", status: .unavailable)
        }
    }

    /// The use cases over the opened store: what every command calls.
    func withService<T>(limits: StoreLimits = StoreLimits(), _ access: StoreAccess = .creating, _ body: (CountdownService) async throws -> T) async throws -> T {
        try await withStore(access) { store in try await body(CountdownService(store: store, limits: limits, clock: CommandClock.now).acting(as: .commandLine)) }
    }
}

/// What a command does with the database, which decides how it is opened.
enum StoreAccess {
    /// Only reads (`list`, `export`): opened read-only; it must exist.
    case reading
    /// Changes what is there (`edit`, `rm`): it must exist.
    case changing
    /// May be the first write (`import`, `add`, `feeds add`): made when missing.
    case creating
}

/// Runs a command body, turning every failure into one `error: …` line on
/// stderr and the exit status of its kind (`ExitStatus`).
func reportingErrors(_ body: @escaping () async throws -> Void) throws {
    do {
        try waitFor(body)
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        printError("error: \(ErrorText.describe(error))")
        throw ExitCode(ErrorText.status(of: error).rawValue)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

import ArgumentParser
import CountdownStore
import Foundation

/// `--db`, shared by every command that touches the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite database file.", discussion: "Default: $TMINUS_DB, or ./tminus.sqlite."))
    var db: String?

    var path: String { db ?? ProcessInfo.processInfo.environment["TMINUS_DB"] ?? "tminus.sqlite" }

    func open(limits: StoreLimits = StoreLimits()) throws -> CountdownStore {
        do {
            return try CountdownStore(path: path, limits: limits)
        } catch {
            throw CLIError("cannot open the database \(path): \(error)")
        }
    }
}

/// Runs a command body, turning store and input errors into one line on stderr and exit code 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
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

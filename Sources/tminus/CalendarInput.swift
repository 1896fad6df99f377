import ArgumentParser
import Foundation
import ICalendar

/// Reads the calendar file a command was given ("-" means standard input),
/// turning every failure into a message for stderr rather than a crash.
struct CalendarInput {
    static let maxBytes = 64 << 20

    /// Why `path` cannot be read as a calendar file, said for a person (no
    /// Foundation error text: issue #40); nil when it can.
    static func problem(with path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "\(path): no such file" }
        if isDirectory.boolValue { return "\(path) is a folder, not a calendar file (give the files in it: \(path)/*.ics)" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "\(path): cannot be read (check its permissions)" }
        return nil
    }

    static func read(_ path: String, options: ParseOptions) throws -> ParseResult {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            if let problem = problem(with: path) { throw CLIError(problem, status: .noInput) }
            guard let read = FileManager.default.contents(atPath: path) else { throw CLIError("\(path): cannot be read", status: .noInput) }
            data = read
        }
        guard data.count <= maxBytes else {
            throw CLIError("\(path): \(data.count) bytes is over the \(maxBytes >> 20) MiB limit for one calendar")
        }
        do {
            return try ICalendarParser.parse(data: data, options: options)
        } catch {
            throw CLIError("\(path): \(error)")
        }
    }
}

extension CalendarInput {
    /// Reads the calendar, or prints why it cannot and exits with its status.
    static func readOrExit(_ path: String, options: ParseOptions) throws -> ParseResult {
        do {
            return try read(path, options: options)
        } catch {
            printError("error: \(ErrorText.describe(error))")
            throw ExitCode(ErrorText.status(of: error).rawValue)
        }
    }
}

import ArgumentParser
import CountdownStore
import Foundation

/// `tminus import`: a calendar file into a feed, idempotently.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an .ics file into a feed (re-importing the same file changes nothing).",
        discussion: """
            Countdowns are matched by UID: new ones are added, changed ones updated (their SEQUENCE rises), identical ones left alone. The whole import is one transaction: if it fails, nothing changes. Items without a start (DTSTART, or DUE for tasks) are skipped and listed.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The .ics file, or - for standard input.") var file: String
    @Option(help: "The feed to import into; created if it does not exist.") var feed: String
    @Flag(help: "Refuse the whole file if it has any error.") var strict = false
    @Flag(help: "Also remove countdowns that earlier imports of this same file added but that it no longer contains.") var sync = false
    @Flag(name: .shortAndLong, help: "List every parser diagnostic and skipped item.") var verbose = false

    func run() throws {
        try reportingErrors {
            let started = Date()
            let data: Data
            if file == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else {
                guard let read = FileManager.default.contents(atPath: file) else { throw CLIError("\(file): no such file, or it cannot be read") }
                data = read
            }
            let source = file == "-" ? nil : URL(fileURLWithPath: file).standardizedFileURL.path
            let store = try store.open()
            let report = try store.importCalendar(data, intoFeed: feed, options: ImportOptions(strict: strict, source: source, sync: sync,
                                                                                         defaultTimeZone: try ViewerZone.resolve(nil).identifier)) { done, total in
                // Quarter marks for big files; the store reports every 500 rows.
                if total >= 2000, done * 4 / total != max(0, done - 500) * 4 / total {
                    printError("importing: \(done) of \(total) countdowns written")
                }
            }
            if !report.diagnostics.isEmpty {
                printError("\(file): \(report.diagnostics.count) problem(s) found; usable items were imported" + (verbose ? ":" : " (--verbose lists them)"))
                if verbose { report.diagnostics.forEach { printError("  \($0)") } }
            }
            if verbose { report.skipped.forEach { printError("  skipped: \($0)") } }
            let seconds = Date().timeIntervalSince(started)
            print("\(feed): \(report)" + (seconds >= 1 ? String(format: " (%.1f s)", seconds) : ""))
        }
    }
}

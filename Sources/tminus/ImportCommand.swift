import ArgumentParser
import CountdownStore
import Foundation
import Services

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
    @Option(help: ArgumentHelp("Largest file to accept: bytes, or with a unit (64M, 1G).",
                               discussion: "Raise it on purpose for a very large calendar; the server's limit stays 32M."))
    var maxBytes = ByteCount(bytes: StoreLimits().maxInputBytes)
    @Option(help: "Most events and tasks one file may hold.") var maxItems = StoreLimits().maxComponents

    func validate() throws {
        guard maxItems > 0 else { throw ValidationError("--max-items must be positive") }
    }

    func run() throws {
        try reportingErrors {
            let started = Date()
            if file != "-" {
                guard FileManager.default.isReadableFile(atPath: file) else { throw CLIError("\(file): no such file, or it cannot be read") }
            }
            let source = file == "-" ? nil : URL(fileURLWithPath: file).standardizedFileURL.path
            var limits = StoreLimits()
            limits.maxInputBytes = maxBytes.bytes
            limits.maxComponents = maxItems
            try await store.withService(limits: limits) { service in
                let options = ImportOptions(strict: strict, source: source, sync: sync, defaultTimeZone: try ViewerZone.resolve(nil).identifier)
                let progress: @Sendable (Int, Int) -> Void = { done, total in
                    // Quarter marks for big files; the store reports every 500 rows.
                    if total >= 2000, done * 4 / total != max(0, done - 500) * 4 / total {
                        printError("importing: \(done) of \(total) countdowns written")
                    }
                }
                // A file is read by the store, which lets its bytes go before building the tree.
                let report = try await withLimitHints {
                    file == "-"
                        ? try await service.importCalendar(FileHandle.standardInput.readDataToEndOfFile(), intoFeed: feed, options: options, progress: progress)
                        : try await service.importCalendar(contentsOf: URL(fileURLWithPath: file), intoFeed: feed, options: options, progress: progress)
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
}

/// Names the option that raises a limit the file went over.
private func withLimitHints<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch StoreError.tooLarge(let bytes, let limit) {
        throw CLIError("the file is \(bytes) bytes, over the limit of \(ByteCount(bytes: limit)); raise it with --max-bytes \((bytes >> 20) + 1)M")
    } catch StoreError.tooManyComponents(let count, let limit) {
        throw CLIError("the calendar has \(count) events and tasks, over the limit of \(limit); raise it with --max-items \(count)")
    }
}

import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services

/// `tminus import`: a calendar file into a feed, idempotently.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import .ics files into feeds (re-importing the same file changes nothing).",
        discussion: """
            Countdowns are matched by UID: new ones are added, changed ones updated (their SEQUENCE rises), identical ones left alone. Each file is one transaction: if it fails, nothing of it changes, and the other files are still imported (the exit status is then the first failure's). Items without a start (DTSTART, or DUE for tasks) are skipped and listed (the first 20, all with --verbose); a file whose every item is skipped is refused (exit 65) and changes nothing.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The .ics files, or - for standard input.",
                                 discussion: "With several files and no --feed, each goes into the feed its file name suggests (birthdays.ics into birthdays), created if it does not exist."))
    var files: [String]
    @Option(help: "The feed to import into; created if it does not exist. Without it, each file's name chooses its feed.") var feed: String?
    @Flag(help: "Refuse the whole file if it has any error.") var strict = false
    @Flag(help: "Also remove countdowns that earlier imports of this same file added but that it no longer contains.") var sync = false
    @Flag(name: .shortAndLong, help: "List every parser diagnostic and skipped item.") var verbose = false
    @Option(help: ArgumentHelp("Largest file to accept: bytes, or with a unit (64M, 1G).",
                               discussion: "Raise it on purpose for a very large calendar; the server's limit stays 32M."))
    var maxBytes = ByteCount(bytes: StoreLimits().maxInputBytes)
    @Option(help: "Most events and tasks one file may hold.") var maxItems = StoreLimits().maxComponents

    func validate() throws {
        guard maxItems > 0 else { throw ValidationError("--max-items must be positive") }
        guard !files.isEmpty else { throw ValidationError("name at least one .ics file, or - for standard input") }
        if files.contains("-") {
            guard files.count == 1 else { throw ValidationError("- (standard input) cannot be combined with other files") }
            guard feed != nil else { throw ValidationError("standard input has no file name: name its feed with --feed") }
        }
        if let feed {
            guard Feed.isValidSlug(feed) else { throw ValidationError(StoreError.invalidSlug(feed).description) }
        } else {
            for file in files where Feed.slug(suggestedBy: file) == nil {
                throw ValidationError("\(file): its name suggests no feed (letters or digits needed); name one with --feed")
            }
        }
    }

    func run() throws {
        try reportingErrors {
            for file in files where file != "-" {
                if let problem = CalendarInput.problem(with: file) { throw CLIError(problem, status: .noInput) }
            }
            var limits = StoreLimits()
            limits.maxInputBytes = maxBytes.bytes
            limits.maxComponents = maxItems
            try await store.withService(limits: limits) { service in
                // One transaction per file: a file that fails changes nothing, and the others still go in.
                var failed: [String] = []
                var worst: ExitStatus?
                for (index, file) in files.enumerated() {
                    let slug = feed ?? Feed.slug(suggestedBy: file)!
                    do {
                        try await importOne(file, into: slug, service: service, showProgress: files.count == 1)
                    } catch {
                        failed.append(file)
                        worst = worst ?? ErrorText.status(of: error)
                        printError("error: \(file): \(ErrorText.describe(error))")
                    }
                    if files.count >= 50, (index + 1) % 100 == 0 { printError("imported \(index + 1) of \(files.count) files") }
                }
                if files.count > 1 { print("\(files.count - failed.count) of \(files.count.counted("file")) imported" + (failed.isEmpty ? "" : "; failed: \(failed.joined(separator: ", "))")) }
                if let worst { throw ExitCode(worst.rawValue) }
            }
        }
    }

    /// Problems and skipped items listed without --verbose.
    static let shownProblems = 20

    /// Files from this size on are announced before they are read (tens of thousands of events).
    static let announcedBytes = 1 << 20

    private func importOne(_ file: String, into slug: String, service: CountdownService, showProgress: Bool) async throws {
        let started = Date()
        let source = file == "-" ? nil : URL(fileURLWithPath: file).standardizedFileURL.path
        var options = ImportOptions(strict: strict, source: source, sync: sync, defaultTimeZone: try ViewerZone.forCommand(nil).identifier)
        options.refuseNothingUsable = true
        let progress: @Sendable (Int, Int) -> Void = { done, total in
            // Quarter marks for big files; the store reports every 500 rows.
            if showProgress, total >= 2000, done * 4 / total != max(0, done - 500) * 4 / total {
                printError("importing: \(done) of \(total) countdowns written")
            }
        }
        // A big file takes seconds to read before the first row is written: say so first.
        if showProgress, file != "-", let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int, size >= Self.announcedBytes {
            printError("reading \(file) (" + String(format: "%.1f", Double(size) / 1_048_576) + " MB)…")
        }
        // A file is read by the store, which lets its bytes go before building the tree.
        let report = try await withLimitHints {
            file == "-"
                ? try await service.importCalendar(FileHandle.standardInput.readDataToEndOfFile(), intoFeed: slug, options: options, progress: progress)
                : try await service.importCalendar(contentsOf: URL(fileURLWithPath: file), intoFeed: slug, options: options, progress: progress)
        }
        // Errors and skipped items are said by default (they are what did not go in); warnings with --verbose.
        let errors = report.errors
        let said = verbose ? report.diagnostics : errors
        let skipped = report.skipped.map { "skipped: \($0)" }
        if !report.diagnostics.isEmpty || !skipped.isEmpty {
            let hidden = report.diagnostics.count - errors.count
            printError("\(file): \(report.diagnostics.count.counted("problem")) found; usable items were imported"
                + (verbose || hidden == 0 ? ":" : " (--verbose lists \(hidden.counted("warning")) more):"))
            let lines = said + skipped
            let shown = verbose ? lines.count : min(lines.count, Self.shownProblems)
            lines.prefix(shown).forEach { printError("  \($0)") }
            if shown < lines.count { printError("  … and \(lines.count - shown) more (--verbose lists them all)") }
        }
        let seconds = Date().timeIntervalSince(started)
        print("\(slug): \(report)" + (seconds >= 1 ? String(format: " (%.1f s)", seconds) : ""))
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

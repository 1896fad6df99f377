import Foundation
import Testing
import TestSupport

/// Issue #63, 12: the README's step 7 failed as written, `to=` did not do what
/// the README said, and nothing noticed. Every `tminus` command of the README
/// and the guide (fenced `sh` and `console` blocks) runs here, page by page
/// in order, against a scratch folder holding a copy of `feeds/` and
/// `examples/` (and `~/Downloads/family.ics`, which the README's tour
/// imports), with the clock at noon UTC on 24 November 2026 (`TMINUS_NOW`;
/// a command's `# on 25 November 2026` or `# at 12:19` moves it). Each must exit 0 (or what
/// its comment says: `# exit 66`; a shown `error:` is a failure), and the
/// lines a `console` block shows after it must appear in its output, in
/// order (`…` stands for anything).
///
/// Not run, because a test cannot: `tminus serve` (it does not end),
/// `tminus password` without `--stdin` (it asks on a terminal), and what is
/// not `tminus` (`make`, `sudo`, `curl`). A page's hidden
/// `<!-- manual: COMMAND -->` lines run where they stand: what the page
/// assumes is there (any shell command); `<!-- manual: skip PREFIX -->`
/// leaves out the page's commands that start so (an id only a real run has).
/// A shown `#12` stands for any id: ids depend on what ran before.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct ManualExamplesTests {
    struct Command: CustomStringConvertible {
        var page: String
        var line: Int
        var text: String
        /// The lines shown after it (console blocks).
        var shown: [String]
        /// A page's hidden `<!-- manual: … -->` line: what the page assumes is there.
        var isSetup = false
        var description: String { "\(page):\(line): \(text)" }

        /// `# exit 66` in its comment, else 1 or more when the page shows an error (`error:`), else 0.
        var expectedStatus: Int32? {
            if let match = text.firstMatch(of: /#.*\bexit (\d+)/), let status = Int32(match.1) { return status }
            return shown.contains { $0.hasPrefix("error:") || $0.contains(": error: ") } ? nil : 0
        }

        /// `# on 25 November 2026` (at noon UTC) or `# at 12:19` (on the page's day): when it is shown run.
        var day: String? {
            if let match = text.firstMatch(of: /# at (\d{2}):(\d{2})\b/) { return "2026-11-24T\(match.1):\(match.2):00Z" }
            guard let match = text.firstMatch(of: /# on (\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})/)
            else { return nil }
            let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
            let month = (months.firstIndex(of: String(match.2)) ?? 0) + 1
            return String(format: "%@-%02d-%02dT12:00:00Z", String(match.3), month, Int(match.1) ?? 1)
        }
    }

    static let pages = ["README.md"] + ManualTests.pages

    /// The page's commands a test can run, in order.
    static func commands(of page: String) throws -> [Command] {
        let lines = try ManualTests.text(page).components(separatedBy: "\n")
        var commands: [Command] = []
        var skipped: [String] = []
        var fence: String?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            defer { index += 1 }
            if fence == nil, let skip = line.firstMatch(of: /^<!-- manual: skip (.*) -->$/) {
                skipped.append(String(skip.1))
                continue
            }
            if fence == nil, let hidden = line.firstMatch(of: /^<!-- manual: (.*) -->$/) {
                commands.append(Command(page: page, line: index + 1, text: String(hidden.1), shown: [], isSetup: true))
                continue
            }
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            guard let kind = fence, ["sh", "console"].contains(kind) else { continue }
            var text = kind == "console" ? (line.hasPrefix("$ ") ? String(line.dropFirst(2)) : nil) : line
            guard var command = text else {
                // An output line: it belongs to the command before it.
                if !commands.isEmpty, commands[commands.count - 1].page == page, commands[commands.count - 1].line < index + 1 {
                    commands[commands.count - 1].shown.append(line)
                }
                continue
            }
            let start = index + 1
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
            }
            text = command
            if skipped.contains(where: { command.hasPrefix($0) }) { continue }
            commands.append(Command(page: page, line: start, text: command, shown: []))
        }
        return commands.filter { $0.isSetup || Self.isRunnable($0) }
    }

    /// A `tminus` command a test can run.
    static func isRunnable(_ command: Command) -> Bool {
        let words = command.text.split(separator: " ")
        guard let first = words.first else { return false }
        let runsTminus = ["tminus", ".build/debug/tminus"].contains(first) || command.text.contains("| tminus ")
        let call = command.text.components(separatedBy: "tminus ").dropFirst().first ?? ""
        if call.hasPrefix("serve") { return false }
        if call.hasPrefix("password"), !command.text.contains("--stdin") { return false }
        return runsTminus
    }

    /// Compares what a console block shows with what was printed: each shown
    /// line, in order, with `…` for anything and a trailing `# comment` left out.
    static func missing(_ shown: [String], in output: String) -> String? {
        var rest = output.components(separatedBy: "\n")[...]
        for raw in shown {
            var line = raw
            if let comment = line.range(of: #" {2,}# "#, options: .regularExpression), comment.lowerBound != line.startIndex { line = String(line[..<comment.lowerBound]) }
            line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line == "…" { continue }
            // Ids (`#12`) depend on what ran before on the page: any number matches.
            let pieces = line.replacing(/#\d+/, with: "#…").components(separatedBy: "…")
            guard let found = rest.firstIndex(where: { candidate in
                var from = candidate.startIndex
                for piece in pieces where !piece.isEmpty {
                    guard let range = candidate.range(of: piece, range: from..<candidate.endIndex) else { return false }
                    from = range.upperBound
                }
                return true
            }) else { return raw }
            rest = rest[(found + 1)...]
        }
        return nil
    }

    @Test(arguments: Self.pages)
    func theManualsExamplesRunAsWritten(page: String) async throws {
        let commands = try Self.commands(of: page)
        guard !commands.isEmpty else { return }
        let tminus = try Tminus()
        defer { tminus.remove() }
        let root = ManualTests.root
        for folder in ["feeds", "examples"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(folder), to: tminus.folder.appendingPathComponent(folder))
        }
        // The README's tour imports "a calendar you have".
        try FileManager.default.createDirectory(atPath: tminus.path("Downloads"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("examples/birthdays.ics").path, toPath: tminus.path("Downloads/family.ics"))
        // `tminus` and `.build/debug/tminus` are the binary under test.
        let binary = try #require(Corpus.tminusBinary)
        try FileManager.default.createDirectory(atPath: tminus.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tminus.path(".build/debug"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tminus.path("bin/tminus"), withDestinationPath: binary.path)
        try FileManager.default.createSymbolicLink(atPath: tminus.path(".build/debug/tminus"), withDestinationPath: binary.path)
        let path = tminus.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for command in commands {
            let environment = ["PATH": path, "HOME": tminus.folder.path, "TMINUS_NOW": command.day ?? "2026-11-24T12:00:00Z", "TZ": "UTC",
                               "ANNA_PASSWORD": "anna's long enough password", "BEN_PASSWORD": "ben's long enough password"]
            let run = try await ChildRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command.text], environment: environment, directory: tminus.folder)
            let said = "\(command)\n--- exit \(run.status)\n\(run.out)\n\(run.err)"
            if let status = command.expectedStatus {
                #expect(run.status == status, "\(said)")
            } else {
                #expect(run.status != 0, "it shows an error: \(said)")
            }
            // Standard error and output are shown in either order (a note on one, then the link on the other).
            if let line = Self.missing(command.shown, in: run.err + "\n" + run.out), Self.missing(command.shown, in: run.out + "\n" + run.err) != nil {
                Issue.record("\(command): the page shows \"\(line)\", which it does not print:\n\(run.out)\n\(run.err)")
            }
        }
    }
}

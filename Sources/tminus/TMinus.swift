import ArgumentParser
import Foundation

/// The command line: countdowns from calendars, and calendars from countdowns.
@main
struct TMinus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tminus",
        abstract: "Turn calendars into countdowns, and countdowns back into calendars.",
        discussion: """
            Examples:
              tminus validate examples/birthdays.ics
              tminus import examples/birthdays.ics --feed family
              tminus list --feed family
              tminus serve --feeds feeds
              tminus serve --db postgres://tminus@db/tminus --feeds feeds   # a replica
              tminus copy --from tminus.sqlite --to postgres://tminus@db/tminus

            \(ExitStatus.table)
            """,
        version: Version.full,
        subcommands: [
            ServeCommand.self, ImportCommand.self, AddCommand.self, ListCommand.self, ExportCommand.self, EditCommand.self, RemoveCommand.self,
            FeedsCommand.self, ValidateCommand.self, OccurrencesCommand.self, FormatCommand.self, PasswordCommand.self, MigrateCommand.self,
            CopyCommand.self, BackupCommand.self, RestoreCommand.self, RulesCommand.self, UsersCommand.self, FocusCommand.self,
        ]
    )

    /// Options of `tminus serve` may come from TMINUS_… variables (`ServeEnvironment`).
    /// Parsed and run here, not by ArgumentParser's `main`, so that every
    /// failure has one style, `error: <what> (<what to do>)`, the usage of the
    /// command that failed (not the root's), and a status from `ExitStatus`.
    static func main() {
        let arguments: [String]
        do {
            arguments = try ServeEnvironment.merged(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        } catch {
            exitSaying(error, in: nil)
        }
        var command: any ParsableCommand
        do { command = try parseAsRoot(arguments) } catch { exitSaying(error, in: nil) }
        do { try command.run() } catch { exitSaying(error, in: type(of: command)) }
    }

    /// Help and `--version` go to stdout with status 0; everything else is
    /// one `error:` line (and, for a usage error, where to read more) on stderr.
    static func exitSaying(_ error: Error, in command: (any ParsableCommand.Type)?) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        guard exitCode(for: error) != .success else { exit(withError: error) }
        let text: String
        let status: Int32
        switch error {
        case is ValidationError:
            let words = command.map { TMinus.path(of: $0) } ?? ""
            text = "error: \(message(for: error))\n  See 'tminus \(words.isEmpty ? "" : words + " ")--help' for more information."
            status = ExitStatus.usage.rawValue
        case _ where command != nil || error is CLIError || error is CocoaError:
            // What a command's run threw: said and classed by the one table.
            text = "error: \(ErrorText.describe(error))"
            status = ErrorText.status(of: error).rawValue
        default:
            // ArgumentParser's own parse errors, with the usage of the command they are about.
            let full = fullMessage(for: error)
            text = full.hasPrefix("Error: ") ? "error: " + full.dropFirst("Error: ".count) : full
            status = exitCode(for: error).rawValue
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        Foundation.exit(status)
    }

    /// `feeds edit` for `FeedsCommand.Edit`: the words a person types to reach it.
    static func path(of command: any ParsableCommand.Type, under parent: any ParsableCommand.Type = TMinus.self) -> String {
        func search(_ node: any ParsableCommand.Type, _ words: [String]) -> [String]? {
            if ObjectIdentifier(node) == ObjectIdentifier(command) { return words }
            for child in node.configuration.subcommands {
                let name = child.configuration.commandName ?? String(describing: child).lowercased()
                if let found = search(child, words + [name]) { return found }
            }
            return nil
        }
        return (search(parent, []) ?? []).joined(separator: " ")
    }
}

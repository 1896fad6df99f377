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
            """,
        version: Version.full,
        subcommands: [
            ServeCommand.self, ImportCommand.self, AddCommand.self, ListCommand.self, ExportCommand.self, EditCommand.self, RemoveCommand.self,
            FeedsCommand.self, ValidateCommand.self, OccurrencesCommand.self, FormatCommand.self, PasswordCommand.self, MigrateCommand.self,
            CopyCommand.self, BackupCommand.self, RestoreCommand.self, RulesCommand.self, UsersCommand.self,
        ]
    )

    /// Options of `tminus serve` may come from TMINUS_… variables (`ServeEnvironment`).
    static func main() {
        do {
            main(try ServeEnvironment.merged(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(64)
        }
    }
}

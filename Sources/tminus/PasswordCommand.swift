import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus password`: sets the web app owner's password (a bcrypt hash in the
/// database), from a terminal prompt or standard input.
struct PasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Set the password that signs in to the web app (/app).",
        discussion: """
            Asks twice on a terminal; with --stdin, reads one line from standard input (for scripts). \
            Only a bcrypt hash is stored, in the database; any unused setup link stops working. \
            Every session signed in before ends (sign in again with the new password).

            Examples:
              tminus password
              printf '%s\\n' "$NEW_PASSWORD" | tminus password --stdin --db /var/lib/tminus/tminus.sqlite
            """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Read the password from standard input instead of asking.") var stdin = false

    func run() throws {
        try reportingErrors {
            let password: String
            if stdin {
                guard let line = readLine(strippingNewline: true) else { throw CLIError("no password on standard input") }
                password = line
            } else {
                guard let first = Self.ask("New password: "), let second = Self.ask("The same again: ") else {
                    throw CLIError("no terminal to ask on; use --stdin")
                }
                guard first == second else { throw CLIError("the two passwords differ; nothing was changed") }
                password = first
            }
            do { try OwnerPassword.check(password) } catch { throw CLIError("\(error); nothing was changed") }
            try await store.withService { service in try await OwnerPassword.set(password, in: service) }
            print("password set: sign in at /app")
        }
    }

    /// Reads a line with echo off (getpass).
    static func ask(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1, let raw = getpass(prompt) else { return nil }
        return String(cString: raw)
    }
}

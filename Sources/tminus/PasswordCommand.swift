import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus password [LOGIN]`: sets a person's password for the web app (a
/// bcrypt hash in the database), from a terminal prompt or standard input;
/// while nobody has an account, makes the first administrator.
struct PasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Set a person's password for the web app (/app), or make the first administrator.",
        discussion: """
            Asks twice on a terminal; with --stdin, reads one line from standard input (for scripts). \
            Only a bcrypt hash is stored, in the database. Every session of that person signed in before ends \
            (they sign in again with the new password); with --revoke-tokens their API tokens and app passwords stop working too.

            While nobody has an account, it makes the first administrator, LOGIN (default: owner), and any unused \
            setup link stops working. Without LOGIN it sets the password of the only person there is.

            Examples:
              tminus password                 # the first administrator, 'owner', or the only person
              tminus password anna
              printf '%s\\n' "$NEW_PASSWORD" | tminus password anna --stdin --db /var/lib/tminus/tminus.sqlite
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Whose password: a login (default: the only person, or 'owner' for the first).") var login: String?
    @Flag(help: "Read the password from standard input instead of asking.") var stdin = false
    @Flag(help: "Also revoke every API token and app password of theirs (a password that may have leaked).") var revokeTokens = false

    func validate() throws {
        if let login, !PersonRecord.isValidLogin(login) {
            throw ValidationError("'\(login)' is not a valid login: use 1 to 64 lower-case letters, digits, dots, dashes and underscores")
        }
    }

    func run() throws {
        try reportingErrors {
            let password = try Self.newPassword(fromStdin: stdin, for: login, flag: "--stdin")
            let said = try await store.withService { service -> String in
                let people = try await service.people()
                if people.isEmpty {
                    let first = login ?? "owner"
                    try await service.addPerson(login: first, password: password, isAdmin: true)
                    return "made the first administrator '\(first)': sign in at /app as \(first)"
                }
                guard let whose = login ?? (people.count == 1 ? people[0].login : nil) else {
                    throw CLIError("say whose password: tminus password LOGIN (people: \(people.map(\.login).joined(separator: ", ")))", status: .usage)
                }
                try await service.setPassword(login: whose, to: password, revokingTokens: revokeTokens)
                return "password set for '\(whose)': their other sessions have ended\(revokeTokens ? ", and their API tokens and app passwords" : ""); sign in at /app"
            }
            print(said)
        }
    }

    /// A new password: one line of standard input, or asked twice on the terminal; checked before anything is changed.
    static func newPassword(fromStdin: Bool, for login: String?, flag: String) throws -> String {
        let password: String
        if fromStdin {
            guard let line = readLine(strippingNewline: true) else { throw CLIError("no password on standard input", status: .noInput) }
            password = line
        } else {
            guard let first = ask(login.map { "New password for \($0): " } ?? "New password: "), let second = ask("The same again: ") else {
                throw CLIError("no terminal to ask on; use \(flag)", status: .usage)
            }
            guard first == second else { throw CLIError("the two passwords differ; nothing was changed") }
            password = first
        }
        do { try PasswordPolicy.check(password) } catch { throw CLIError("\(error); nothing was changed") }
        return password
    }

    /// Reads a line with echo off (getpass).
    static func ask(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1, let raw = getpass(prompt) else { return nil }
        return String(cString: raw)
    }
}

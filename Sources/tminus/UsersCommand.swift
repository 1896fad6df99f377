import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus users`: the people who sign in, and their API tokens (issue #37).
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Add and list the people who use this tminus, and make their API tokens.",
        discussion: """
            Each person has a login, a password (only its bcrypt hash is kept) and API tokens of their own; \
            an administrator may do everything. Spaces and their members are made through the API (POST /api/spaces).

            Examples:
              printf '%s\\n' "$PASSWORD" | tminus users add anna --name "Anna K." --admin --password-stdin
              tminus users list
              tminus users token anna --label laptop
              tminus users token ben --label calendar-sync --read-only --expires-days 90
              tminus users tokens ben
              tminus users revoke ben 3
              tminus users invite --space family --role editor   # a one-time link, shown once
              tminus users reset-link ben   # for a forgotten password
              tminus users second-factor-off ben   # he lost his phone and his recovery codes
              tminus users signup open      # anyone may make an account (closed by default)
              tminus users app-password ben --label "Ben's iPhone"   # for his calendar app (CalDAV)
              tminus users disable ben      # his tokens, app passwords and sessions stop at once
              tminus users delete ben --hand-to anna
            """,
        subcommands: [Add.self, List.self, Token.self, AppPasswordCommand.self, Tokens.self, Revoke.self, Invite.self, Invitations.self, ResetLink.self, Quota.self, Signup.self, SecondFactorOff.self,
                      Disable.self, Enable.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a person.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their login: lower-case letters, digits, dots, dashes, underscores.") var login: String
        @Option(help: "The name others see (default: the login).") var name: String?
        @Flag(help: "An administrator: may do everything, for everyone.") var admin = false
        @Flag(help: "Read the password from one line of standard input (else it is asked for twice).") var passwordStdin = false

        func validate() throws {
            guard PersonRecord.isValidLogin(login) else {
                throw ValidationError("'\(login)' is not a valid login: use 1 to 64 lower-case letters, digits, dots, dashes and underscores")
            }
        }

        func run() throws {
            try reportingErrors {
                let password = try PasswordCommand.newPassword(fromStdin: passwordStdin, for: login, flag: "--password-stdin")
                let person = try await store.withService { service in
                    try await service.addPerson(login: login, displayName: name, password: password, isAdmin: admin)
                }
                print("added \(person.isAdmin ? "administrator" : "person") '\(person.login)'; `tminus users token \(person.login) --label NAME` makes an API token")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the people.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingErrors {
                let people = try await store.withService(.reading) { try await $0.people() }
                if json {
                    let rows = people.map { ["login": $0.login, "name": $0.displayName, "admin": $0.isAdmin ? "yes" : "no",
                                             "disabled": $0.disabledAt == nil ? "no" : "yes"] }
                    print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
                    return
                }
                if people.isEmpty { print("no people yet: `tminus users add NAME --admin`"); return }
                for person in people {
                    print("\(person.login.padding(toLength: 20, withPad: " ", startingAt: 0)) \(person.isAdmin ? "admin " : "      ")"
                          + "\(person.disabledAt == nil ? "" : "(disabled) ")\(person.displayName)")
                }
            }
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an API token for a person; it is shown once.",
            discussion: "Send it as `Authorization: Bearer <token>` to /api: requests then act as that person.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String
        @Option(help: "What the token is for (a device, a script).") var label: String
        @Flag(help: "The token only reads.") var readOnly = false
        @Option(help: "Days until it stops working (default: never).") var expiresDays: Int?

        func validate() throws {
            if let expiresDays, !(1...3650).contains(expiresDays) { throw ValidationError("--expires-days must be from 1 to 3650") }
        }

        func run() throws {
            try reportingErrors {
                let (secret, token) = try await store.withService { service in
                    try await service.createPersonToken(login: login, label: label, readOnly: readOnly,
                                                        expiresIn: expiresDays.map { TimeInterval($0) * 86_400 })
                }
                FileHandle.standardError.write(Data("token '\(token.label)' for \(login)\(token.readOnly ? " (read-only)" : ""); shown once:\n".utf8))
                print(secret)
            }
        }
    }

    struct AppPasswordCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "app-password",
            abstract: "Make an app password for a person's calendar app (CalDAV); it is shown once.",
            discussion: """
                The calendar app signs in with the person's login name and this password (never their web password),
                at the server's address (https://HOST/, or https://HOST/dav/). Revoke it with `tminus users revoke`.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String
        @Option(help: "Which app or device it is for (\"Anna's iPhone\"): shown as who changed what it writes.") var label: String
        @Flag(help: "The app may only read.") var readOnly = false

        func run() throws {
            try reportingErrors {
                let (secret, token) = try await store.withService { service in
                    try await service.createAppPassword(login: login, label: label, readOnly: readOnly)
                }
                FileHandle.standardError.write(Data("app password '\(token.label)' for \(login)\(token.readOnly ? " (read-only)" : ""); shown once:\n".utf8))
                print(secret)
            }
        }
    }

    struct Tokens: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a person's API tokens and app passwords (never their secrets).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String

        func run() throws {
            try reportingErrors {
                let tokens = try await store.withService(.reading) { try await $0.personTokens(login: login) }
                if tokens.isEmpty {
                    print("\(login) has no tokens: `tminus users token \(login) --label NAME`, or `tminus users app-password \(login) --label NAME`")
                    return
                }
                let format = Date.ISO8601FormatStyle()
                for token in tokens {
                    let state = token.revokedAt != nil ? "revoked" : token.expiresAt.map { $0 <= Date() ? "expired" : "until \($0.formatted(format))" } ?? "live"
                    let kind = token.purpose == .app ? "app password" : "API token   "
                    print("#\(token.id ?? 0)".padding(toLength: 6, withPad: " ", startingAt: 0) + " \(kind) \(token.label.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                          + "\(token.readOnly ? "read-only " : "read-write") \(state)"
                          + ", last used \(token.lastUsedAt.map { $0.formatted(format) } ?? "never")")
                }
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke one of a person's API tokens or app passwords (see `tminus users tokens`).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String
        @Argument(help: "The token's number.") var id: Int64

        func run() throws {
            try reportingErrors {
                try await store.withService { try await $0.revokePersonToken(login: login, id: id) }
                print("revoked token #\(id) of \(login)")
            }
        }
    }

    struct SecondFactorOff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "second-factor-off",
            abstract: "Turn off a person's two-step sign-in (they lost their phone and their recovery codes); their password alone signs in again.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String

        func run() throws {
            try reportingErrors {
                try await store.withService { try await $0.removeSecondFactor(login: login) }
                print("two-step sign-in is off for \(login); they can turn it on again on their account page (/app/account)")
            }
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable a person: their tokens stop working at once (nothing of theirs is deleted).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String

        func run() throws {
            try UsersCommand.setDisabled(login, true, in: store, saying: "disabled \(login); `tminus users enable \(login)` undoes it")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a person: their memberships and tokens go; their own feeds are handed over (--hand-to) or deleted.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String
        @Option(help: "Who gets their own feeds (default: the feeds are deleted with them).") var handTo: String?

        func run() throws {
            try reportingErrors {
                try await store.withService { try await $0.deletePerson(login: login, handTo: handTo) }
                print("deleted \(login)" + (handTo.map { "; their feeds are \($0)'s now" } ?? " and their own feeds"))
            }
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled person again.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The person's login.") var login: String

        func run() throws {
            try UsersCommand.setDisabled(login, false, in: store, saying: "enabled \(login)")
        }
    }

    /// `disable` and `enable`: one use case, two words.
    static func setDisabled(_ login: String, _ disabled: Bool, in store: StoreOptions, saying done: String) throws {
        try reportingErrors {
            try await store.withService { try await $0.setDisabled(login: login, disabled) }
            print(done)
        }
    }
}

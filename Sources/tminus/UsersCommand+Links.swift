import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus users invite`, `reset-link` and `signup`: how people get an
/// account or their password back without e-mail (issue #37). A link is
/// printed once; only its hash is kept, and it works once, for 7 days.
extension UsersCommand {
    /// The server's public address, to print whole links with.
    struct LinkOptions: ParsableArguments {
        @Option(help: "The server's public address, which links start with (default: TMINUS_BASE_URL, else the address the last server on this database was reached at).")
        var baseURL = ProcessInfo.processInfo.environment["TMINUS_BASE_URL"]

        /// The whole link: the address given, else the one the server keeps
        /// (`SettingKey.publicAddress`); without either, the path alone, and
        /// a note on standard error saying what is missing.
        func url(_ path: String, service: CountdownService) async throws -> String {
            var kept: String? = nil
            if baseURL == nil { kept = try await service.setting(.publicAddress) }
            guard let base = baseURL ?? kept else {
                printError("no server has run on this database yet, so its address is unknown: give --base-url (or TMINUS_BASE_URL) for a whole link")
                return path
            }
            return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        }
    }

    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a one-time invitation link: whoever opens it makes an account (in a space with a role, if given).",
            discussion: """
                The link works once, for 7 days; pass it on yourself (tminus sends no e-mail).

                Examples:
                  tminus users invite                                  # an account in no space
                  tminus users invite --space family --role editor --base-url https://countdowns.example.org
                """)
        @OptionGroup var store: StoreOptions
        @OptionGroup var link: LinkOptions
        @Option(help: "The space they join (its slug).") var space: String?
        @Option(help: "Their role there: owner, editor, viewer or busy (sees busy times only) (default viewer).") var role: SpaceRole?

        func validate() throws {
            if role != nil, space == nil { throw ValidationError("--role needs --space: the role is the one they get there") }
        }

        func run() throws {
            try reportingErrors {
                let (secret, made, address) = try await store.withService { service in
                    let (secret, made) = try await service.createInvitation(space: space, role: role)
                    return (secret, made, try await link.url("/app/join/\(secret)", service: service))
                }
                var what = "an invitation"
                if case .invitation(let space?, let role?) = made.purpose { what += " to \(space) as \(role.rawValue)" }
                FileHandle.standardError.write(Data("\(what), until \(made.expiresAt.formatted(Date.ISO8601FormatStyle())); shown once:\n".utf8))
                print(address)
            }
        }
    }

    struct Invitations: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the invitations not yet used, or revoke one: its link then opens nothing.",
            discussion: """
                A link's secret is never shown again: each invitation is listed by an id, its space and role, \
                who made it and until when. An invitation also ends when its maker is disabled, or is no longer \
                an owner of its space.

                Examples:
                  tminus users invitations                     # all open invitations
                  tminus users invitations --space family
                  tminus users invitations --revoke 3f9a0c41d2b7e865
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: "Only those into this space (its slug).") var space: String?
        @Option(help: "Revoke the invitation with this id (from the list).") var revoke: String?

        func run() throws {
            try reportingErrors {
                if let revoke {
                    let gone = try await store.withService(.changing) { try await $0.revokeInvitation(id: revoke) }
                    print("revoked invitation \(gone.id)\(gone.space.map { " to \($0)" } ?? ""), made by \(gone.madeBy)")
                    return
                }
                let open = try await store.withService(.reading) { try await $0.openInvitations(space: space) }
                if open.isEmpty {
                    FileHandle.standardError.write(Data("no open invitations\(space.map { " to \($0)" } ?? "")\n".utf8))
                    return
                }
                print(["id", "space", "role", "made by", "until"].joined(separator: "\t"))
                for invitation in open {
                    print([invitation.id, invitation.space ?? "-", invitation.role?.rawValue ?? "-", invitation.madeBy,
                           invitation.expiresAt.formatted(Date.ISO8601FormatStyle())].joined(separator: "\t"))
                }
            }
        }
    }

    struct ResetLink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-link",
            abstract: "Print a one-time link that sets a person's password (for one who forgot theirs); their sessions end when it is used.",
            aliases: ["reset"])
        @OptionGroup var store: StoreOptions
        @OptionGroup var link: LinkOptions
        @Argument(help: "The person's login.") var login: String

        func run() throws {
            try reportingErrors {
                let (made, address) = try await store.withService { service in
                    let (secret, made) = try await service.createResetLink(login: login)
                    return (made, try await link.url("/app/reset/\(secret)", service: service))
                }
                FileHandle.standardError.write(Data("a reset link for \(login), until \(made.expiresAt.formatted(Date.ISO8601FormatStyle())); shown once:\n".utf8))
                print(address)
            }
        }
    }

    struct Signup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open or close sign-up: whether anyone may make an account at /app/signup (closed by default).",
            discussion: "`tminus serve --open-signup` opens it while that server runs, whatever this setting says.")
        enum State: String, ExpressibleByArgument, CaseIterable { case open, closed, status }
        @OptionGroup var store: StoreOptions
        @Argument(help: "open, closed, or status (default).") var state: State = .status

        func run() throws {
            try reportingErrors {
                let open = try await store.withService { service in
                    if state != .status { try await service.setSignupOpen(state == .open) }
                    return try await service.isSignupOpen(serverAllows: false)
                }
                print(open ? "sign-up is open: anyone may make an account at /app/signup" : "sign-up is closed: people come by `tminus users invite`")
            }
        }
    }
}

extension SpaceRole: ExpressibleByArgument {}

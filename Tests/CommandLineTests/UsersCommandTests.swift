import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `tminus users`: people are added with a password read from standard
/// input, listed, and given API tokens shown once; a refused one changes nothing.
struct UsersCommandTests {
    @Test func peopleAreAddedListedAndGivenTokens() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        let added = try await tminus.run(["users", "add", "anna", "--name", "Anna K.", "--admin", "--password-stdin", "--db", database],
                                         input: "a long enough password\n")
        #expect(added.status == 0 && added.out.contains("added administrator 'anna'"), "\(added.err)")
        #expect(try await tminus.run(["users", "add", "ben", "--password-stdin", "--db", database], input: "another long password\n").status == 0)

        let short = try await tminus.run(["users", "add", "carl", "--password-stdin", "--db", database], input: "short\n")
        #expect(short.status != 0 && short.err.contains("at least 10 characters"), "\(short.err)")
        let taken = try await tminus.run(["users", "add", "anna", "--password-stdin", "--db", database], input: "a long enough password\n")
        #expect(taken.status != 0 && taken.err.contains("already exists"), "\(taken.err)")
        let invalid = try await tminus.run(["users", "add", "Anna Smith", "--password-stdin", "--db", database], input: "a long enough password\n")
        #expect(invalid.status != 0 && invalid.err.contains("not a valid login"), "\(invalid.err)")

        let listed = try await tminus.run(["users", "list", "--db", database])
        #expect(listed.out.contains("anna") && listed.out.contains("admin") && listed.out.contains("Anna K.") && listed.out.contains("ben"))
        #expect(!listed.out.contains("carl"), "a refused person is not added")

        let token = try await tminus.run(["users", "token", "ben", "--label", "phone", "--read-only", "--db", database])
        #expect(token.status == 0 && token.out.hasPrefix("tmp_") && token.err.contains("read-only"), "\(token.err)")
        let tokens = try await tminus.run(["users", "tokens", "ben", "--db", database])
        #expect(tokens.out.contains("#1") && tokens.out.contains("phone") && tokens.out.contains("read-only") && tokens.out.contains("last used never"),
                "\(tokens.out)")
        #expect(!tokens.out.contains("tmp_"), "secrets are never shown again")
        #expect(try await tminus.run(["users", "revoke", "ben", "1", "--db", database]).status == 0)
        #expect(try await tminus.run(["users", "tokens", "ben", "--db", database]).out.contains("revoked"))
        #expect(try await tminus.run(["users", "disable", "ben", "--db", database]).status == 0)
        #expect(try await tminus.run(["users", "list", "--db", database]).out.contains("(disabled)"))
        let deleted = try await tminus.run(["users", "delete", "ben", "--hand-to", "anna", "--db", database])
        #expect(deleted.status == 0 && deleted.out.contains("their feeds are anna's now"), "\(deleted.err)")
        #expect(!(try await tminus.run(["users", "list", "--db", database]).out.contains("ben")))
        let nobody = try await tminus.run(["users", "token", "dora", "--label", "phone", "--db", database])
        #expect(nobody.status != 0 && nobody.err.contains("no person 'dora'"), "\(nobody.err)")
    }

    /// `tminus password`: with nobody yet it makes the first administrator
    /// (`owner`, or the login given); then it sets a named person's password,
    /// or the only person's; with several and no name it asks which.
    @Test func passwordMakesTheFirstAdministratorThenSetsAPersonsPassword() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        let first = try await tminus.run(["password", "--stdin", "--db", database], input: "a long enough password\n")
        #expect(first.status == 0 && first.out.contains("made the first administrator 'owner'"), "\(first.err)")
        let listed = try await tminus.run(["users", "list", "--db", database])
        #expect(listed.out.contains("owner") && listed.out.contains("admin"), "\(listed.out)")
        let only = try await tminus.run(["password", "--stdin", "--db", database], input: "another long password\n")
        #expect(only.status == 0 && only.out.contains("password set for 'owner'"), "\(only.err)")
        #expect(try await tminus.run(["users", "add", "ben", "--password-stdin", "--db", database], input: "bens long password\n").status == 0)
        let which = try await tminus.run(["password", "--stdin", "--db", database], input: "a third long password\n")
        #expect(which.status != 0 && which.err.contains("say whose password") && which.err.contains("ben, owner"), "\(which.err)")
        let ben = try await tminus.run(["password", "ben", "--stdin", "--db", database], input: "short\n")
        #expect(ben.status != 0 && ben.err.contains("at least 10 characters"), "\(ben.err)")
        let nobody = try await tminus.run(["password", "dora", "--stdin", "--db", database], input: "a long enough password\n")
        #expect(nobody.status != 0 && nobody.err.contains("no person 'dora'"), "\(nobody.err)")
    }

    /// `tminus users invite`, `reset-link` and `signup`: links printed once, whole.
    @Test func invitationsResetLinksAndSignUpFromTheCommandLine() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        #expect(try await tminus.run(["users", "add", "anna", "--admin", "--password-stdin", "--db", database], input: "a long enough password\n").status == 0)
        let nowhere = try await tminus.run(["users", "invite", "--space", "family", "--role", "editor", "--db", database])
        #expect(nowhere.status != 0 && nowhere.err.contains("no space 'family'"), "\(nowhere.err)")
        let roleless = try await tminus.run(["users", "invite", "--role", "editor", "--db", database])
        #expect(roleless.status != 0 && roleless.err.contains("--role needs --space"), "\(roleless.err)")
        let invited = try await tminus.run(["users", "invite", "--base-url", "https://countdowns.example.org/", "--db", database])
        #expect(invited.status == 0 && invited.out.hasPrefix("https://countdowns.example.org/app/join/") && invited.err.contains("shown once"),
                "\(invited.out) \(invited.err)")
        // Issue #63, 5: without --base-url the link named port 8080 whatever the server used.
        let reset = try await tminus.run(["users", "reset-link", "anna", "--db", database])
        #expect(reset.status == 0 && reset.out.hasPrefix("/app/reset/") && reset.err.contains("give --base-url"), "no server has run here: \(reset.out) \(reset.err)")
        let port = Loopback.freePort()
        let output = try OutputWatch(file: tminus.path("serve.log"))
        let server = Process()
        server.executableURL = try #require(Corpus.tminusBinary)
        try FileManager.default.createDirectory(atPath: tminus.path("no-feeds"), withIntermediateDirectories: true)
        server.arguments = ["serve", "--port", "\(port)", "--db", database, "--feeds", tminus.path("no-feeds")]
        server.currentDirectoryURL = tminus.folder
        try output.start(server)
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        #expect(await output.wait(for: "listening on"))
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        await output.ended.wait()
        let served = try await tminus.run(["users", "reset-link", "anna", "--db", database])
        #expect(served.out.hasPrefix("http://127.0.0.1:\(port)/app/reset/"), "the address the server was reached at: \(served.out)")
        #expect(try await tminus.run(["users", "reset-link", "dora", "--db", database]).err.contains("no person 'dora'"))
        #expect(try await tminus.run(["users", "reset", "anna", "--db", database]).out.contains("/app/reset/"), "`reset` is the same command")
        #expect(try await tminus.run(["users", "signup", "--db", database]).out.contains("sign-up is closed"))
        #expect(try await tminus.run(["users", "signup", "open", "--db", database]).out.contains("sign-up is open"))
        #expect(try await tminus.run(["users", "signup", "status", "--db", database]).out.contains("sign-up is open"))
        #expect(try await tminus.run(["users", "signup", "closed", "--db", database]).out.contains("sign-up is closed"))
        let off = try await tminus.run(["users", "second-factor-off", "anna", "--db", database])
        #expect(off.status == 0 && off.out.contains("two-step sign-in is off for anna"), "\(off.err)")
        let wrong = try await tminus.run(["users", "signup", "maybe", "--db", database])
        #expect(wrong.status != 0 && wrong.err.contains("open"), "\(wrong.err)")
    }
}

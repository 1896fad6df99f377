import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue #24, 4 and 8: every `serve` option also reads a TMINUS_… variable
/// (flags win), `--help` names it, and `--log-format json` writes one object a line.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct ServeEnvironmentTests {
    @Test func helpNamesTheVariableOfEveryOption() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let help = try await tminus.run(["serve", "--help"]).out
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let options = Set(help.matches(of: /\n\s+(--[a-z-]+)/).map { String($0.1) }).subtracting(["--help", "--version"])
        #expect(options.count >= 15, "\(options)")
        for option in options {
            let variable = "TMINUS_" + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(flat.contains("(env: \(variable))"), "\(option) does not name \(variable)")
        }
    }

    @Test func variablesSetOptionsAndFlagsWin() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let refused = try await tminus.run(["serve", "--db", tminus.path("db.sqlite")], environment: ["TMINUS_MAX_CONNECTIONS": "5"])
        #expect(refused.status != 0 && refused.err.contains("--max-connections must be at least 16"), "\(refused.err)")
        let badFlag = try await tminus.run(["serve", "--db", tminus.path("db.sqlite")], environment: ["TMINUS_GZIP": "maybe"])
        #expect(badFlag.status != 0 && badFlag.err.contains("TMINUS_GZIP='maybe' is not true or false"), "\(badFlag.err)")
        let flagWins = try await tminus.run(["serve", "--db", tminus.path("db.sqlite"), "--max-connections", "7"],
                                      environment: ["TMINUS_MAX_CONNECTIONS": "100"])
        #expect(flagWins.err.contains("--max-connections must be at least 16"), "the flag, not the variable: \(flagWins.err)")

        // A real server from variables alone, logging JSON.
        let port = Loopback.freePort()   // a random pick once landed on a port an outgoing connection held
        try "env-test-admin-token-0123456789".write(toFile: tminus.path("admin-token"), atomically: true, encoding: .utf8)
        #expect(chmod(tminus.path("admin-token"), 0o600) == 0)
        let log = tminus.path("serve.log")
        let output = try OutputWatch(file: log)
        let process = Process()
        process.executableURL = try #require(Corpus.tminusBinary)
        process.arguments = ["serve"]
        process.currentDirectoryURL = tminus.folder
        process.environment = ProcessInfo.processInfo.environment.merging([
            "TMINUS_PORT": "\(port)", "TMINUS_DB": tminus.path("db.sqlite"), "TMINUS_LOG_FORMAT": "json",
            "TMINUS_ADMIN_TOKEN_FILE": tminus.path("admin-token"), "TMINUS_LOG_LEVEL": "debug",
        ]) { _, new in new }
        try output.start(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        #expect(await output.wait(for: "listening on"), "the server says it listens")
        let up = await Loopback.get(port: port, path: "/healthz")?.contains(#"{"status":"ok"}"#) ?? false
        #expect(up, "the server listens on TMINUS_PORT")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        await output.ended.wait()
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] != nil && object?["message"] != nil && object?["time"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains("\"message\":\"tminus ready\"") && $0.contains("\"url\":\"http://127.0.0.1:\(port)\"") })
        // The request's debug line carries its id beside the path (`LogMetadata` keeps the id apart from the other keys).
        #expect(lines.contains { $0.contains("\"message\":\"request\"") && $0.contains("\"hb.request.id\":") && $0.contains("\"path\":\"/healthz\"") },
                "\(lines.filter { $0.contains("request") }.prefix(3))")
    }

    /// Without --feeds, `serve` loads ./feeds when there is one, as `rules test` does (issue #40).
    @Test func serveLoadsTheFeedsFolderBesideItByDefault() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try FileManager.default.createDirectory(atPath: tminus.path("feeds"), withIntermediateDirectories: true)
        _ = try tminus.calendar("family.ics")
        try "name: Family\nsources:\n  - file: ../family.ics\n".write(toFile: tminus.path("feeds/family.yaml"), atomically: true, encoding: .utf8)
        let port = Loopback.freePort()
        let log = tminus.path("serve.log")
        let output = try OutputWatch(file: log)
        let process = Process()
        process.executableURL = try #require(Corpus.tminusBinary)
        process.arguments = ["serve", "--port", "\(port)", "--db", tminus.path("db.sqlite"), "--log-level", "debug"]
        process.currentDirectoryURL = tminus.folder
        try output.start(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        #expect(await output.wait(for: "listening on"), "the server says it listens")
        let calendar = await Loopback.get(port: port, path: "/feeds/family.ics") ?? ""
        #expect(calendar.contains("SUMMARY:Sports day"), "the feed defined in ./feeds is served: \(calendar.prefix(300))")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        await output.ended.wait()
        // The text log's request line carries the request's id with the logger's other metadata (`TextLogHandler` keeps it apart).
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("hb.request.id=") && $0.contains("path=/feeds/family.ics") && $0.contains("status=200") },
                "\(lines.filter { $0.contains("request") }.prefix(3))")
    }
}

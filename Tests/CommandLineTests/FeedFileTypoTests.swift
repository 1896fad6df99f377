import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue #63, 1: a feed file with `souces:` loaded ("feeds=6 rejected=0") and
/// was served empty. `serve`, a SIGHUP reload and `rules test` now refuse it
/// with the file, the line and the nearest key, and a reload that refuses a
/// file keeps its feed as it was and says so in `/api/health`.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct FeedFileTypoTests {
    static let message = "`souces` is not a feed setting; did you mean `sources`?"

    @Test func serveAReloadAndRulesTestRefuseAMisspeltKey() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try FileManager.default.createDirectory(atPath: tminus.path("feeds"), withIntermediateDirectories: true)
        _ = try tminus.calendar("family.ics")
        let file = tminus.path("feeds/family.yaml")
        try "name: Family\ntimeZone: Europe/Berlin\nsources:\n  - file: ../family.ics\n".write(toFile: file, atomically: true, encoding: .utf8)
        let token = "typo-test-admin-token-0123456789"
        try token.write(toFile: tminus.path("admin-token"), atomically: true, encoding: .utf8)
        #expect(chmod(tminus.path("admin-token"), 0o600) == 0)
        let port = Loopback.freePort()
        let output = try OutputWatch(file: tminus.path("serve.log"))
        let process = Process()
        process.executableURL = try #require(Corpus.tminusBinary)
        process.arguments = ["serve", "--port", "\(port)", "--db", tminus.path("db.sqlite"), "--feeds", tminus.path("feeds"),
                             "--admin-token-file", tminus.path("admin-token")]
        process.currentDirectoryURL = tminus.folder
        try output.start(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        #expect(await output.wait(for: "listening on"), "the server says it listens")
        #expect((await Loopback.get(port: port, path: "/feeds/family.ics") ?? "").contains("SUMMARY:Sports day"))

        // The typo, then SIGHUP: refused and named; the feed serves what it had, in its zone.
        try "name: Family\ntimeZone: Europe/Berlin\nsouces:\n  - file: ../family.ics\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(await output.wait(for: Self.message), "the reload names the key")
        #expect(await output.wait(for: "family.yaml:3: "), "and its file and line")
        let calendar = await Loopback.get(port: port, path: "/feeds/family.ics") ?? ""
        #expect(calendar.contains("SUMMARY:Sports day") && calendar.contains("X-WR-TIMEZONE:Europe/Berlin"), "\(calendar.prefix(400))")
        let health = await Loopback.exchangeOffPool(port: port, send: "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")?.answer ?? ""
        #expect(health.contains("family.yaml:3: \(Self.message)"), "health shows the refused file: \(health.suffix(600))")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        await output.ended.wait()

        // `rules test` says the same and exits 65.
        let test = try await tminus.run(["rules", "test", "family", "--feeds", "feeds"])
        #expect(test.status == 65 && test.err.contains("family.yaml:3: \(Self.message)"), "\(test.status) \(test.err)")
    }
}

import AsyncHTTPClient
import CountdownStore
@testable import FeedServer
import Foundation
import NIOCore
import NIOHTTP1
import ServerTestSupport
import Services
import SQLiteStore
import Testing
import TestSupport

/// Secrets stay out of logs and out of other users' reach: the real `tminus
/// serve` binary, its real log, its real files.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct SecretsStayOutTests {
    /// A feed token used in a request, and the admin bearer token, never reach
    /// the log, even at debug level where every request is logged.
    @Test func tokensUsedInRequestsNeverReachTheLog() async throws {
        let binary = try #require(Corpus.tminusBinary)
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "public: false")
        let port = Loopback.freePort()
        let log = fixture.directory.appendingPathComponent("server.log")
        let output = try OutputWatch(file: log.path)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "\(port)", "--db", fixture.directory.appendingPathComponent("db.sqlite").path,
                             "--feeds", fixture.feeds.path, "--admin-token-file", fixture.directory.appendingPathComponent("admin-token").path,
                             "--log-level", "debug"]
        try output.start(process)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let client = HTTPClient.shared
        let base = "http://127.0.0.1:\(port)"
        func get(_ path: String, bearer: String? = nil, method: HTTPMethod = .GET) async throws -> (Int, String) {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
            let response = try await client.execute(request, timeout: .seconds(10))
            return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
        }
        try #require(await output.wait(for: "listening on"), "the server came up")
        #expect(try await get("/healthz").0 == 200)
        let (created, body) = try await get("/api/feeds/family/tokens", bearer: fixture.adminToken, method: .POST)
        #expect(created == 201 || created == 200, "\(body)")
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as! [String: Any]
        let token = try #require(json["secret"] as? String)
        #expect(try await get("/t/\(token)/feeds/family.ics").0 == 200)
        #expect(try await get("/t/\(token)/feeds/family.json?tz=Europe/Berlin").0 == 200)
        // A one-time invitation link, opened: its secret is a path segment too.
        var invite = HTTPClientRequest(url: base + "/api/invitations")
        invite.method = .POST
        invite.headers.add(name: "Authorization", value: "Bearer \(fixture.adminToken)")
        invite.headers.add(name: "Content-Type", value: "application/json")
        invite.body = .bytes(ByteBuffer(string: "{}"))
        let invited = try await client.execute(invite, timeout: .seconds(10))
        let link = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await invited.body.collect(upTo: 1 << 16))) as? [String: Any])
        let joinPath = String(try #require((link["url"] as? String)?.split(separator: "8080", maxSplits: 1).last ?? (link["url"] as? String)?[...]))
        let secretOfLink = try #require(joinPath.split(separator: "/").last.map(String.init))
        #expect(try await get(String(joinPath[joinPath.range(of: "/app/join/")!.lowerBound...])).0 == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        await output.ended.wait()

        let written = try String(contentsOf: log, encoding: .utf8)
        #expect(written.contains("/t/***/feeds/family.ics"), "the request was logged, redacted")
        #expect(!written.contains(token), "the feed token is not in the log")
        #expect(!written.contains(fixture.adminToken), "the admin token is not in the log")
        #expect(written.contains("/app/join/***") && !written.contains(secretOfLink), "nor an invitation's secret")
        // Issue #27: the one-time setup link makes the first account; it was logged at notice.
        #expect(written.contains("nobody has an account yet"), "the log says the first account is missing")
        #expect(!written.contains("/app/setup/"), "the setup link is shown only on a terminal, never logged")
    }

    /// The database, its WAL and a generated admin token are owner-only from
    /// the start; a token file that others can read is named in a warning.
    @Test func databaseAndGeneratedTokenAreOwnerOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let store = try SQLiteCountdownStore(path: path)
        _ = try await store.feeds()
        let token = try await AdminToken.setUp(service: store.service, configuredFile: nil, database: .sqlite(path: path), logger: .init(label: "test"))
        for file in [path, path + "-wal", token.file] where FileManager.default.fileExists(atPath: file) {
            #expect(PrivateFile.mode(file) == "0600", "\(file) is \(PrivateFile.mode(file))")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(throws: PrivateFile.Failure.self, "O_EXCL: an existing file is not overwritten") {
            try PrivateFile.create(at: token.file, contents: Data("x".utf8))
        }
        try await store.close()
    }
}

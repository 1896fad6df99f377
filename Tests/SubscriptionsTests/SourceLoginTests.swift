@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Subscriptions
import Synchronization
import Testing

/// Issue #26: URL sources behind a login (HTTP Basic, a bearer token, extra
/// headers). Secrets are named in the feed file, read when fetching, never
/// written inline, never sent to another host, and never shown.
struct SourceLoginTests {
    static let password = "correct-horse-battery-staple-7"

    /// The Authorization headers the calendar server saw.
    final class Seen: Sendable {
        let headers = Mutex<[String?]>([])
    }

    /// A calendar server that wants `anna` and `password`, and redirects to itself or to another host name.
    static func loginServer(seen: Seen) -> some ApplicationProtocol {
        let router = Router()
        let expected = "Basic " + Data("anna:\(password)".utf8).base64EncodedString()
        router.get("private/calendar.ics") { request, _ -> Response in
            seen.headers.withLock { $0.append(request.headers[.authorization]) }
            guard request.headers[.authorization] == expected else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"calendars\""])
            }
            return Response(status: .ok, headers: [.contentType: "text/calendar"], body: .init(byteBuffer: ByteBuffer(string: ServerFixture.family)))
        }
        router.get("moved") { _, _ in Response(status: .found, headers: [.location: "/private/calendar.ics"]) }
        router.get("elsewhere/{port}") { _, context in
            // "localhost" is another host name than the "127.0.0.1" the source names: the login must not follow.
            Response(status: .found, headers: [.location: "http://localhost:\(context.parameters.get("port") ?? "")/private/calendar.ics"])
        }
        router.get("bearer.ics") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer token-from-the-environment", request.headers[HTTPField.Name("X-Calendar-Key")!] == "key-42" else {
                return Response(status: .forbidden)
            }
            return Response(status: .ok, headers: [.contentType: "text/calendar"], body: .init(byteBuffer: ByteBuffer(string: ServerFixture.family)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func definition(_ fixture: ServerFixture, slug: String, url: String, auth: String) throws {
        try Data("""
            name: \(slug)
            sources:
              - url: \(url)
                auth:
            \(auth)

            """.utf8).write(to: fixture.feeds.appendingPathComponent("\(slug).yaml"))
    }

    @Test func aSourceLogsInWithSecretsNamedInTheFeedFile() async throws {
        let seen = Seen()
        try await Self.loginServer(seen: seen).test(.live) { source in
            let port = try #require(source.port)
            let fixture = try ServerFixture()
            try Data((Self.password + "\n").utf8).write(to: fixture.directory.appendingPathComponent("nextcloud.secret"))
            try Data("wrong-password\n".utf8).write(to: fixture.directory.appendingPathComponent("wrong.secret"))
            let variable = "TMINUS_TEST_TOKEN_\(UInt32.random(in: 0...UInt32.max))"
            setenv(variable, "token-from-the-environment", 1)
            setenv(variable + "_KEY", "key-42", 1)
            defer { unsetenv(variable); unsetenv(variable + "_KEY") }
            let base = "http://127.0.0.1:\(port)"
            try Self.definition(fixture, slug: "cloud", url: "\(base)/private/calendar.ics",
                                auth: "      basic: {username: anna, passwordFile: ../nextcloud.secret}")
            try Self.definition(fixture, slug: "moved", url: "\(base)/moved", auth: "      basic: {username: anna, passwordFile: ../nextcloud.secret}")
            try Self.definition(fixture, slug: "wrong", url: "\(base)/private/calendar.ics", auth: "      basic: {username: anna, passwordFile: ../wrong.secret}")
            try Self.definition(fixture, slug: "elsewhere", url: "\(base)/elsewhere/\(port)",
                                auth: "      basic: {username: anna, passwordFile: ../nextcloud.secret}")
            try Self.definition(fixture, slug: "token", url: "\(base)/bearer.ics",
                                auth: "      bearer: {tokenEnv: \(variable)}\n      headers: {X-Calendar-Key: {env: \(variable)_KEY}}")
            try await fixture.withServer { client in
                var answers: [String] = []
                for slug in ["cloud", "moved", "token", "wrong", "elsewhere"] {
                    let response = try await client.execute(uri: "/api/feeds/\(slug)/refresh", method: .post, headers: fixture.admin)
                    answers.append(String(buffer: response.body))
                }
                for slug in ["cloud", "moved", "token"] {
                    let (response, body) = try await client.text("/feeds/\(slug).ics")
                    #expect(response.status == .ok && body.contains("Christmas"), "\(slug): logged in")
                }
                let health = try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin)
                let text = String(buffer: health.body)
                #expect(text.contains("refused the login"), "a wrong password is a clear source error: \(text)")
                #expect(text.contains("after a redirect to another host"), "the login did not follow to another host")
                for output in answers + [text, try await client.text("/feeds/cloud.ics").1, try await client.text("/healthz").1] {
                    #expect(!output.contains(Self.password) && !output.contains("token-from-the-environment") && !output.contains("key-42"))
                }
            }
            let headers = seen.headers.withLock { $0 }
            let expected = "Basic " + Data("anna:\(Self.password)".utf8).base64EncodedString()
            #expect(headers.contains(expected))
            #expect(headers.filter { $0 == nil }.count >= 1, "the request that reached another host name carried no login")
        }
    }

    @Test(arguments: [
        ("      basic: {username: anna, password: hunter2}", "never written in a feed file"),
        ("      bearer: {token: abc}", "never written in a feed file"),
        ("      headers: {X-Key: {value: abc}}", "never written in a feed file"),
        ("      basic: {username: anna, passwordFile: ../missing.secret}", "not a readable file"),
        ("      basic: {username: anna, passwordFile: /dev/zero}", "not a readable file"),
        ("      basic: {username: anna, passwordEnv: TMINUS_TEST_SURELY_UNSET_VARIABLE}", "environment variable TMINUS_TEST_SURELY_UNSET_VARIABLE"),
        ("      basic: {username: anna, passwordFile: a, passwordEnv: b}", "exactly one of passwordFile or passwordEnv"),
        ("      headers: {\"Bad Header\": {env: HOME}}", "is not a header name"),
        ("      {}", "is empty"),
    ])
    func aSecretWrittenInlineOrMissingIsRefusedByName(auth: String, message: String) throws {
        let fixture = try ServerFixture()
        try Self.definition(fixture, slug: "cloud", url: "https://cloud.example.org/calendar.ics", auth: auth)
        #expect(throws: FeedDefinitionError.self) { try FeedDefinitionLoader.load(file: fixture.feeds.appendingPathComponent("cloud.yaml")) }
        do { _ = try FeedDefinitionLoader.load(file: fixture.feeds.appendingPathComponent("cloud.yaml")) } catch {
            #expect("\(error)".contains(message), "\(error)")
            #expect(!"\(error)".contains("hunter2") && !"\(error)".contains(": abc"), "the error never repeats the secret")
        }
    }

    /// The second audit: a `passwordFile` that is a symlink (how Kubernetes
    /// and Docker mount secrets: a link to `..data/…`, itself a link) was
    /// refused as "not a readable file". Links to a device stay refused.
    @Test func aSymlinkedPasswordFileIsFollowed() throws {
        let fixture = try ServerFixture()
        let data = fixture.directory.appendingPathComponent("..2026_11_26/password")
        try FileManager.default.createDirectory(at: data.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("hunter2\n".utf8).write(to: data)
        let dataLink = fixture.directory.appendingPathComponent("..data")
        try FileManager.default.createSymbolicLink(atPath: dataLink.path, withDestinationPath: "..2026_11_26")
        let mounted = fixture.directory.appendingPathComponent("password")
        try FileManager.default.createSymbolicLink(atPath: mounted.path, withDestinationPath: "..data/password")
        #expect(try SourceCredentials.Secret.file(mounted.path).read() == "hunter2")
        let device = fixture.directory.appendingPathComponent("zero")
        try FileManager.default.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/zero")
        #expect(throws: CalendarFetcher.Failure.self) { try SourceCredentials.Secret.file(device.path).read() }
    }

    @Test func aPasswordInTheURLIsRefused() throws {
        let problem = FeedDefinitionCheck.problem(in: "sources:\n  - url: https://anna:hunter2@cloud.example.org/calendar.ics\n")
        #expect(problem?.contains("holds a user name or password") == true && problem?.contains("hunter2") == false, "\(problem ?? "")")
    }

    @Test(arguments: [
        ("https://cloud.example.org/a", "https://cloud.example.org/b", true),
        ("http://cloud.example.org/a", "https://cloud.example.org/b", true),
        ("https://cloud.example.org/a", "http://cloud.example.org/b", false),
        ("https://cloud.example.org/a", "https://cdn.example.org/b", false),
        ("https://cloud.example.org/a", "https://cloud.example.org:8443/b", false),
        ("https://cloud.example.org/a", "https://CLOUD.example.org:443/b", true),
        ("http://cloud.example.org:8080/a", "https://cloud.example.org:8080/b", true),
        // The second audit: an upgrade to https went to any port of the host.
        ("http://cloud.example.org/a", "https://cloud.example.org:9999/b", false),
        ("http://cloud.example.org:8080/a", "https://cloud.example.org:9999/b", false),
    ])
    func theLoginFollowsRedirectsOnlyOnItsOwnHost(from: String, to: String, follows: Bool) throws {
        #expect(SourceCredentials.mayFollow(from: try #require(URL(string: from)), to: try #require(URL(string: to))) == follows)
    }
}

@testable import CountdownStore
import Crypto
@testable import FeedServer
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Subscriptions
import Testing

/// Issue #26, part 2: a login entered in the web app for an address the feed
/// keeps fetching is stored only sealed (AES-GCM) under a key kept in a file
/// outside the database, is never shown again, and is used by later fetches.
struct SavedLoginTests {
    @Test func aSealedLoginOpensOnlyWithItsKeyAndUntouched() throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256), file: "test")
        let binding = SecretBox.Binding(feed: "cloud", location: "https://cloud.example.org/a.ics")
        let first = try box.seal("hunter2", for: binding), second = try box.seal("hunter2", for: binding)
        #expect(first.hasPrefix("v2.") && first != second, "a fresh nonce each time")
        #expect(!first.contains("hunter2"))
        #expect(try box.open(first, for: binding) == "hunter2")
        let other = SecretBox(key: SymmetricKey(size: .bits256), file: "other-key")
        #expect(throws: SecretBox.Failure.self) { try other.open(first, for: binding) }
        var tampered = Array(first)
        tampered[30] = tampered[30] == "A" ? "B" : "A"
        #expect(throws: SecretBox.Failure.self) { try box.open(String(tampered), for: binding) }
    }

    /// The second audit: the seal had no associated data, so whoever could
    /// write the database could point a kept login at a server of theirs.
    @Test func aSealedLoginIsBoundToItsFeedAndSource() throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256), file: "test")
        let sealed = try box.seal("hunter2", for: .init(feed: "cloud", location: "https://cloud.example.org/a.ics"))
        for elsewhere in [SecretBox.Binding(feed: "cloud", location: "https://evil.example/a.ics"), .init(feed: "other", location: "https://cloud.example.org/a.ics")] {
            #expect(throws: SecretBox.Failure.self) { try box.open(sealed, for: elsewhere) }
            do { _ = try box.open(sealed, for: elsewhere) } catch { #expect("\(error)".contains("sealed for another source"), "\(error)") }
            // A forged tag (copied from the target's) still does not open: the seal checks the binding itself.
            let forged = sealed.replacingOccurrences(of: SecretBox.Binding(feed: "cloud", location: "https://cloud.example.org/a.ics").tag, with: elsewhere.tag)
            do { _ = try box.open(forged, for: elsewhere); Issue.record("a forged tag opened the login") } catch {
                #expect("\(error)".contains("cannot be opened"), "\(error)")
            }
        }
        let unbound = "v1." + (try AES.GCM.seal(Data("hunter2".utf8), using: box.key).combined ?? Data()).base64EncodedString()
        #expect(throws: SecretBox.Failure.self, "the first format is refused once re-sealing exists") {
            try box.open(unbound, for: .init(feed: "cloud", location: "https://cloud.example.org/a.ics"))
        }
        #expect(try box.openUnbound(unbound) == "hunter2")
    }

    @Test(arguments: [
        (nil, "pw", nil, "a login needs both a user name and a password"),
        ("anna", nil, "tok", "give either a user name and password or a token, not both"),
        ("an:na", "pw", nil, "cannot contain ':'"),
    ] as [(String?, String?, String?, String)])
    func aHalfLoginIsRefused(username: String?, password: String?, token: String?, message: String) {
        #expect(throws: SecretBox.Failure.self) { try SavedLogin.from(username: username, password: password, token: token) }
        do { _ = try SavedLogin.from(username: username, password: password, token: token) } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func theWebAppKeepsALoginSealedUsesItAgainAndNeverShowsIt() async throws {
        let seen = SourceLoginTests.Seen()
        try await SourceLoginTests.loginServer(seen: seen).test(.live) { source in
            let url = "http://127.0.0.1:\(try #require(source.port))/private/calendar.ics"
            let fixture = try ServerFixture(transport: .live, backend: .sqlite)
            try Data("name: Cloud\n".utf8).write(to: fixture.feeds.appendingPathComponent("cloud.yaml"))
            let keyFile = fixture.directory.appendingPathComponent("tminus-secrets-key").path
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                #expect(!FileManager.default.fileExists(atPath: keyFile), "no key is made before a login is saved")
                try await WebAppSignIn.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppSignIn.password)
                _ = try await browser.get("/app/feeds/cloud/import")
                let wrong = try await browser.postMultipart("/app/feeds/cloud/import", [
                    ("url", .text(url)), ("keep", .text("on")), ("username", .text("anna")), ("password", .text("not-it")), ("file", .file("", Data())),
                ])
                #expect(wrong.status == .badGateway && wrong.text.contains("refused the login"), "\(wrong.text.prefix(300))")
                #expect(!wrong.text.contains("not-it"), "the password is not filled back in")
                #expect(try await parts.store.subscriptions().isEmpty)

                let imported = try await browser.postMultipart("/app/feeds/cloud/import", [
                    ("url", .text(url)), ("keep", .text("on")), ("username", .text("anna")), ("password", .text(SourceLoginTests.password)),
                    ("file", .file("", Data())),
                ])
                #expect(imported.status == .ok && imported.text.contains("added"), "\(imported.text.prefix(300))")
                #expect(!imported.text.contains(SourceLoginTests.password))
                let subscription = try #require(try await parts.store.subscriptions().first)
                #expect(subscription.location == url && subscription.login?.hasPrefix("v2.") == true)
                #expect(!PrivateFile.isReadableByOthers(keyFile), "the key file is private (\(PrivateFile.mode(keyFile)))")

                // "Fetch now" logs in with the saved login.
                let before = seen.headers.withLock { $0.count }
                _ = try await browser.get("/app/feeds/cloud")
                #expect(try await browser.post("/app/feeds/cloud/refresh", [:]).status == .seeOther)
                let after = seen.headers.withLock { Array($0.dropFirst(before)) }
                #expect(after == ["Basic " + Data("anna:\(SourceLoginTests.password)".utf8).base64EncodedString()])
                let page = try await browser.get("/app/feeds/cloud")
                #expect(!page.text.contains(SourceLoginTests.password) && !page.text.contains("Last attempt failed"))
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(!health.contains(SourceLoginTests.password))
            }
            // Nowhere in the database files, in the clear.
            for suffix in ["", "-wal", "-shm"] {
                let bytes = FileManager.default.contents(atPath: fixture.databasePath + suffix) ?? Data()
                #expect(bytes.range(of: Data(SourceLoginTests.password.utf8)) == nil, "tminus.sqlite\(suffix)")
            }
            let key = try #require(try SecretBox.read(keyFile, logger: .init(label: "test")))
            let sealedLogin = #"{"username":"anna","password":"\#(SourceLoginTests.password)"}"#
            // A login of the first format (no binding) is sealed again at start, bound, and still used.
            let unbound = "v1." + (try AES.GCM.seal(Data(sealedLogin.utf8), using: key.key).combined ?? Data()).base64EncodedString()
            try await Self.sql(fixture, "UPDATE source SET login = ? WHERE location = ?", [unbound, url])
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                #expect(try await parts.store.subscriptions().first?.login?.hasPrefix("v2.") == true, "re-sealed at start")
                let before = seen.headers.withLock { $0.count }
                _ = try await client.execute(uri: "/api/feeds/cloud/refresh", method: .post, headers: fixture.admin)
                #expect(seen.headers.withLock { Array($0.dropFirst(before)) } == ["Basic " + Data("anna:\(SourceLoginTests.password)".utf8).base64EncodedString()])
            }
            // Whoever can write the database points the kept login at another address: it is not sent there.
            let stolen = url + "?to=someone-else"
            try await Self.sql(fixture, "UPDATE source SET location = ? WHERE location = ?", [stolen, url])
            try await fixture.withServer(adjust: { _ in }) { client, _ in
                let before = seen.headers.withLock { $0.count }
                _ = try await client.execute(uri: "/api/feeds/cloud/refresh", method: .post, headers: fixture.admin)
                #expect(seen.headers.withLock { $0.dropFirst(before).compactMap { $0 } }.isEmpty, "no login reached the other address")
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(health.contains("sealed for another source"), "\(health.prefix(600))")
            }
            try await Self.sql(fixture, "UPDATE source SET location = ? WHERE location = ?", [url, stolen])
            // A damaged key file does not stop the server: only the kept logins fail, and say why.
            try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: keyFile))
            try await fixture.withServer(adjust: { _ in }) { client, _ in
                #expect(try await client.text("/feeds/cloud.json").0.status == .ok, "the feeds are served")
                _ = try await client.execute(uri: "/api/feeds/cloud/refresh", method: .post, headers: fixture.admin)
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(health.contains("secrets key must be 32 bytes"), "\(health.prefix(600))")
            }
            #expect(String(decoding: FileManager.default.contents(atPath: keyFile) ?? Data(), as: UTF8.self) == "not a key\n", "never replaced")
            // Without the key, the saved login is a clear source error, not a 401.
            try FileManager.default.removeItem(atPath: keyFile)
            try await fixture.withServer(adjust: { _ in }) { client, _ in
                _ = try await client.execute(uri: "/api/feeds/cloud/refresh", method: .post, headers: fixture.admin)
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(health.contains("no key to open the saved login"), "\(health.prefix(600))")
            }
        }
    }

    /// Writes the fixture's SQLite file as someone with access to it would, between two runs of the server.
    static func sql(_ fixture: ServerFixture, _ statement: String, _ arguments: StatementArguments) async throws {
        let queue = try DatabaseQueue(path: fixture.databasePath)
        try await queue.write { db in try db.execute(sql: statement, arguments: arguments) }
    }
}

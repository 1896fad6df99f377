import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import CountdownStore
@testable import FeedServer

/// Issue #26, part 2: a login entered in the web app for an address the feed
/// keeps fetching is stored only sealed (AES-GCM) under a key kept in a file
/// outside the database, is never shown again, and is used by later fetches.
struct SavedLoginTests {
    @Test func aSealedLoginOpensOnlyWithItsKeyAndUntouched() throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256), file: "test")
        let first = try box.seal("hunter2"), second = try box.seal("hunter2")
        #expect(first.hasPrefix("v1.") && first != second, "a fresh nonce each time")
        #expect(!first.contains("hunter2"))
        #expect(try box.open(first) == "hunter2")
        let other = SecretBox(key: SymmetricKey(size: .bits256), file: "other-key")
        #expect(throws: SecretBox.Failure.self) { try other.open(first) }
        var tampered = Array(first)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        #expect(throws: SecretBox.Failure.self) { try box.open(String(tampered)) }
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
                try await WebAppTests.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppTests.password)
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
                #expect(subscription.location == url && subscription.login?.hasPrefix("v1.") == true)
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
            // Without the key, the saved login is a clear source error, not a 401.
            try FileManager.default.removeItem(atPath: keyFile)
            try await fixture.withServer(adjust: { _ in }) { client, _ in
                _ = try await client.execute(uri: "/api/feeds/cloud/refresh", method: .post, headers: fixture.admin)
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(health.contains("no key to open the saved login"), "\(health.prefix(600))")
            }
        }
    }
}

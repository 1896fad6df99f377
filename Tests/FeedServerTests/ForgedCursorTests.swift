@testable import Catalog
import CountdownStore
import Crypto
@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The second audit's critical finding: a `?cursor=` is base64 of fields
/// anyone could write (the fingerprint is a public function of the view's
/// parameters), and an offset of `Int.max` trapped at `offset + limit`, a
/// minute of `Int.min` at `now - minute`: one request killed the server.
/// Cursors are now signed, and every field is bounded when read.
struct ForgedCursorTests {
    /// A cursor as the old format wrote it (no MAC), with whatever fields an attacker likes.
    static func unsigned(revision: String, minute: String, offset: String, fingerprint: UInt32) -> String {
        Base64URL.encode(Array("1.\(revision).-.\(minute).\(offset).\(fingerprint)".utf8))
    }

    @Test func aForgedCursorIsA400AndTheServerKeepsAnswering() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("long", calendar: CompileOnDemandTests.days(250))
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (_, first) = try await client.text("/feeds/long.json?limit=10")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            let next = try #require(page["next"] as? String)
            let compiled = try #require(await parts.catalog.feed(slug: "long"))
            // What an attacker computes from the view's public parameters.
            let fingerprint = FeedQuery.fingerprint(zone: compiled.feed.zone, sort: compiled.feed.sort, language: compiled.feed.language ?? .english)
            let minute = Int((fixture.clockNow.timeIntervalSince1970 / 60).rounded(.down))
            let revision = String(compiled.revision)
            let forged = [
                Self.unsigned(revision: revision, minute: String(minute), offset: "9223372036854775807", fingerprint: fingerprint),
                Self.unsigned(revision: revision, minute: "-9223372036854775808", offset: "10", fingerprint: fingerprint),
                Self.unsigned(revision: "-1", minute: String(minute), offset: "10", fingerprint: fingerprint),
                String(next.dropLast(2)) + (next.hasSuffix("AA") ? "BB" : "AA"),   // a signed cursor, its MAC altered
                String(repeating: "A", count: 5_000),
            ]
            for cursor in forged {
                for path in ["/feeds/long.json?limit=10&cursor=", "/feeds/long?cursor="] {
                    let (response, message) = try await client.text(path + cursor)
                    #expect(response.status == .badRequest, "\(path)\(cursor.prefix(40))…: \(response.status) \(message.prefix(100))")
                }
            }
            // Even a cursor signed with the server's own key (a leaked key) cannot reach trapping arithmetic.
            let key = parts.renderer.cursorKey
            let signed: [(FeedCursor, HTTPResponse.Status)] = [
                (FeedCursor(revision: compiled.revision, holidaysRevision: nil, minute: minute, offset: .max, fingerprint: fingerprint), .badRequest),
                (FeedCursor(revision: compiled.revision, holidaysRevision: nil, minute: .max, offset: 10, fingerprint: fingerprint), .badRequest),
                (FeedCursor(revision: compiled.revision, holidaysRevision: nil, minute: 0, offset: 10, fingerprint: fingerprint), .conflict),
                (FeedCursor(revision: .max, holidaysRevision: nil, minute: minute, offset: 10, fingerprint: fingerprint), .conflict),
                (FeedCursor(revision: compiled.revision, holidaysRevision: nil, minute: minute, offset: 250, fingerprint: fingerprint), .ok),
            ]
            for (cursor, status) in signed {
                let response = try await client.text("/feeds/long.json?limit=10&cursor=" + cursor.text(key: key)).0
                #expect(response.status == status, "\(cursor): \(response.status)")
            }
            #expect(try await client.text("/feeds/long.json?limit=10&cursor=\(next)").0.status == .ok, "the real cursor still works")
            #expect(try await client.text("/healthz").0.status == .ok)
        }
    }

    @Test func theCursorKeyIsMadeOnceAndKeptInTheStore() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("long", calendar: CompileOnDemandTests.days(150))
        let first = try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (_, body) = try await client.text("/feeds/long.json?limit=10")
            #expect(try await parts.store.setting(.cursorKey) != nil)
            return try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["next"] as? String)
        }
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            let status = try await client.text("/feeds/long.json?limit=10&cursor=\(first)").0.status
            #expect(status == .ok, "a restart (or a replica) reads the cursor")
        }
    }

    /// The second audit: 60,000 requests with unknown categories grew the
    /// process from 63 to 155 MB, as each kept its (empty) list's order.
    @Test func unknownCategoriesKeepNothing() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("long", calendar: CompileOnDemandTests.days(50))
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            _ = try await client.text("/feeds/long.json")
            let before = parts.renderer.orders.count
            for index in 0..<500 {
                #expect(try await client.text("/feeds/long.json?category=nope-\(index)").0.status == .ok)
            }
            #expect(parts.renderer.orders.count == before)
        }
    }
}

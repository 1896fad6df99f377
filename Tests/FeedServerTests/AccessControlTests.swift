@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

struct AccessControlTests {
    @Test func privateFeedsNeedALiveToken() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("bills", calendar: ServerFixture.family, yaml: "public: false")
        try await fixture.withServer { client in
            for path in ["/feeds/bills.ics", "/feeds/bills.json", "/feeds/bills", "/feeds/bills/countdown.ics"] {
                #expect(try await client.text(path).0.status == .notFound, "\(path) without a token")
            }
            let (_, index) = try await client.text("/")
            #expect(!index.contains("bills"), "private feeds are not listed")
            #expect(index.contains("<a class=\"button\" href=\"/app\">Manage countdowns: sign in to the app</a>"), "the index leads to the app (issue #63, 11)")

            let created = try await client.execute(uri: "/api/feeds/bills/tokens", method: .post, headers: fixture.admin,
                                                   body: ByteBuffer(string: #"{"label":"phone"}"#))
            #expect(created.status == .created)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as! [String: Any]
            let secret = try #require(json["secret"] as? String)
            #expect(secret.count >= 22, "at least 128 bits")
            let ics = try #require(json["ics"] as? String)
            #expect(ics.count < 256, "Google rejects subscription URLs over 256 characters")
            #expect(try await client.text("/t/\(secret)/feeds/bills.ics").0.status == .ok)
            #expect(try await client.text("/t/\(secret)/feeds/bills/countdown.ics").0.status == .ok)
            #expect(try await client.text("/t/\(secret)/feeds/family.ics").0.status == .notFound, "a token opens only its own feed")
            #expect(try await client.text("/t/AAAAAAAAAAAAAAAAAAAAAA/feeds/bills.ics").0.status == .notFound)

            let second = try await client.execute(uri: "/api/feeds/bills/tokens", method: .post, headers: fixture.admin)
            let other = try #require((try JSONSerialization.jsonObject(with: Data(buffer: second.body)) as! [String: Any])["secret"] as? String)
            let tokenId = try #require((json["token"] as? [String: Any])?["id"] as? Int)
            let revoked = try await client.execute(uri: "/api/feeds/bills/tokens/\(tokenId)", method: .delete, headers: fixture.admin)
            #expect(revoked.status == .noContent)
            #expect(try await client.text("/t/\(secret)/feeds/bills.ics").0.status == .notFound, "a revoked token stops working")
            #expect(try await client.text("/t/\(other)/feeds/bills.ics").0.status == .ok, "the other token still works")
            let (list, listBody) = try await client.text("/api/feeds/bills/tokens", headers: fixture.admin)
            #expect(list.status == .ok && listBody.contains("\"revokedAt\"") && !listBody.contains(secret), "secrets are never listed")
        }
    }

    @Test func adminAPIRefusesWithoutItsToken() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong-token-wrong-token"], [.authorization: "Basic dXNlcjpwYXNz"]] {
                let response = try await client.execute(uri: "/api/feeds", method: .get, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(String(buffer: response.body).contains("admin token"))
            }
            let deleted = try await client.execute(uri: "/api/feeds/family", method: .delete)
            #expect(deleted.status == .unauthorized)
            #expect(try await client.text("/feeds/family.ics").0.status == .ok, "nothing was deleted")
            #expect(try await client.text("/api/feeds", headers: fixture.admin).0.status == .ok)
        }
    }
}

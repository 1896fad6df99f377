import Countdowns
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing

/// Regression (issue #59, 14): a 30 MB description was accepted and nothing bounded what one person
/// stored. Over the API a write past the quota answers 507 and one countdown's text past 1 MiB 413,
/// each naming why; "Your account" shows what one's feeds hold.
struct StorageQuotaServingTests {
    @Test func theAPIAnswers507PastTheQuotaAnd413ForAHugeTextAndTheAccountPageShowsTheUsage() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            try await service.addPerson(login: "anna", password: WebAppSignIn.password, cost: 4)
            let secret = try await service.createPersonToken(login: "anna", label: "phone", readOnly: false).secret
            let anna: HTTPFields = [.authorization: "Bearer \(secret)", .contentType: "application/json"]
            #expect(try await client.execute(uri: "/api/feeds", method: .post, headers: anna, body: ByteBuffer(string: #"{"slug":"mine","name":"Mine"}"#)).status == .created)
            try await service.setStorageQuota(StorageQuota(countdowns: 1, megabytes: 100, images: 10))
            func add(_ body: String) async throws -> (HTTPResponse.Status, String) {
                let response = try await client.execute(uri: "/api/feeds/mine/countdowns", method: .post, headers: anna, body: ByteBuffer(string: body))
                return (response.status, String(buffer: response.body))
            }
            #expect(try await add(#"{"title":"Exam","date":"2027-06-01"}"#).0 == .created)
            let (over, why) = try await add(#"{"title":"Trip","date":"2027-07-01"}"#)
            #expect(over.code == 507 && why.contains("over the quota of 1"), "\(over) \(why)")
            try await service.setStorageQuota(.standard)
            // The API's bodies are small; a calendar brings the long text (folded lines of 2 MB).
            let huge = String(repeating: "x", count: 2 << 20)
            let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:huge@quota.test\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;VALUE=DATE:20270701\r\nSUMMARY:Huge\r\nDESCRIPTION:\(huge)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let imported = try await client.execute(uri: "/api/feeds/mine/import", method: .post, headers: [.authorization: "Bearer \(secret)", .contentType: "text/calendar"],
                                                    body: ByteBuffer(string: calendar))
            let what = String(buffer: imported.body)
            #expect(imported.status == .contentTooLarge && what.contains("over the limit of 1048576 bytes for one countdown"),
                    "\(imported.status) \(what.prefix(600))")
            #expect(try await parts.store.countdowns(inFeed: "mine").map(\.title) == ["Exam"], "nothing refused was kept")

            // A calendar app's PUT past the quota: 507 with RFC 4331's precondition, which apps show as "the account is full".
            try await service.setStorageQuota(StorageQuota(countdowns: 1, megabytes: 100, images: 10))
            let app = CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret)
            let put = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/mine/trip.ics", app, CalDAVRequests.event("trip@quota.test", "Trip"))
            #expect(put.status == 507 && put.body.contains("quota-not-exceeded") && put.body.contains("over the quota of 1"), "\(put.status) \(put.body)")
            try await service.setStorageQuota(.standard)

            var browser = Browser(client: client)
            try await browser.signIn(WebAppSignIn.password, as: "anna")
            let page = try await browser.get("/app/account")
            #expect(page.text.contains("Your feeds hold 1 of 10,000 countdowns, 0.0 of 100 MB of text and 0 of 500 images"), "\(page.text.prefix(2000))")
        }
    }
}

import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing

/// Issue #37's independent run, through the admin API with people's own
/// tokens: Anna makes a space and a feed in it; Ben, a viewer, reads it and
/// is refused a countdown; as an editor he adds one; removed, the feed is not
/// there for him; Carl never sees it.
struct PeopleAndSpacesTests {
    static func bearer(_ secret: String) -> HTTPFields { [.authorization: "Bearer \(secret)", .contentType: "application/json"] }

    static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields,
                     _ body: String? = nil) async throws -> (status: Int, body: String) {
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (Int(response.status.code), String(buffer: response.body))
    }

    @Test(arguments: [ServerFixture.Backend.memory, .sqlite]) func aSpaceSharesItsFeedsByRole(_ backend: ServerFixture.Backend) async throws {
        let fixture = try ServerFixture(backend: backend)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let operator_ = parts.dependencies.parts.service
            var tokens: [String: String] = [:]
            for login in ["anna", "ben", "carl"] {
                try await operator_.addPerson(login: login, password: "a long enough password", cost: 4)
                tokens[login] = try await operator_.createPersonToken(login: login, label: "tests", readOnly: false).secret
            }
            let anna = Self.bearer(tokens["anna"]!), ben = Self.bearer(tokens["ben"]!), carl = Self.bearer(tokens["carl"]!)
            let countdown = #"{"title":"Grandma's birthday","date":"2027-03-14"}"#

            #expect(try await Self.send(client, .post, "/api/spaces", anna, #"{"slug":"family","name":"Family"}"#).status == 201)
            let made = try await Self.send(client, .post, "/api/feeds", anna, #"{"slug":"birthdays","name":"Birthdays","space":"family","public":false}"#)
            #expect(made.status == 201, "\(made.body)")
            #expect(try await Self.send(client, .post, "/api/feeds/birthdays/countdowns", anna, countdown).status == 201)

            // Ben, a viewer: reads, and is refused a change with the permission he lacks.
            let added = try await Self.send(client, .post, "/api/spaces/family/members", anna, #"{"user":"ben","role":"viewer"}"#)
            #expect(added.status == 201 && added.body.contains(#""role":"viewer""#), "\(added.body)")
            let read = try await Self.send(client, .get, "/api/feeds/birthdays/countdowns", ben)
            #expect(read.status == 200 && read.body.contains("Grandma"), "\(read.body)")
            let refused = try await Self.send(client, .post, "/api/feeds/birthdays/countdowns", ben, countdown)
            #expect(refused.status == 403 && refused.body.contains("change feed 'birthdays'"), "\(refused.body)")
            #expect(try await Self.send(client, .post, "/api/spaces/family/members", ben, #"{"user":"carl","role":"owner"}"#).status == 403,
                    "a viewer adds no members")

            // As an editor he adds one.
            #expect(try await Self.send(client, .patch, "/api/spaces/family/members/ben", anna, #"{"role":"editor"}"#).status == 200)
            let second = #"{"title":"Ben's exam","date":"2027-06-01"}"#
            let his = try await Self.send(client, .post, "/api/feeds/birthdays/countdowns", ben, second)
            #expect(his.status == 201 && his.body.contains(#""createdBy":"ben""#), "who made it: \(his.body)")
            let id = try #require(his.body.firstRange(of: #/"id":(\d+)/#).map { String(his.body[$0].dropFirst(5)) })
            let edited = try await Self.send(client, .patch, "/api/countdowns/\(id)", anna, #"{"title":"Ben's final exam"}"#)
            #expect(edited.body.contains(#""createdBy":"ben""#) && edited.body.contains(#""changedBy":"anna""#), "who changed it: \(edited.body)")
            #expect(try await !Self.send(client, .get, "/feeds/birthdays.json", fixture.admin).body.contains("createdBy"),
                    "who changed what is not in the feed's own outputs")
            #expect(try await Self.send(client, .post, "/api/feeds/birthdays/sources", ben, #"{"url":"https://example.org/x.ics"}"#).status == 403,
                    "an editor adds no source that reaches the network")

            // Carl never sees it: not in his list, 404 by address, and his own feed is his.
            #expect(try await !Self.send(client, .get, "/api/feeds", carl).body.contains("birthdays"))
            #expect(try await Self.send(client, .get, "/api/feeds/birthdays", carl).status == 404)
            #expect(try await Self.send(client, .post, "/api/feeds", carl, #"{"slug":"carls","name":"Carl's"}"#).status == 201)
            #expect(try await Self.send(client, .get, "/api/feeds/carls", anna).status == 404, "a person's own feed is theirs")
            #expect(try await Self.send(client, .get, "/api/spaces/family", carl).status == 404)
            let me = try await Self.send(client, .get, "/api/me", ben)
            #expect(me.status == 200 && me.body.contains(#""user":"ben""#) && me.body.contains(#""role":"editor""#) && me.body.contains(#""slug":"family""#),
                    "\(me.body)")
            #expect(try await Self.send(client, .get, "/api/spaces", carl).body == "[]", "Carl belongs to no space")

            // Removed, the feed is gone for Ben; the last owner cannot go.
            #expect(try await Self.send(client, .delete, "/api/spaces/family/members/ben", anna).status == 204)
            #expect(try await Self.send(client, .get, "/api/feeds/birthdays", ben).status == 404)
            let last = try await Self.send(client, .delete, "/api/spaces/family/members/anna", anna)
            #expect(last.status == 422 && last.body.contains("no owner left"), "\(last.body)")
            let unknown = try await Self.send(client, .post, "/api/spaces/family/members", anna, #"{"user":"dora","role":"viewer"}"#)
            #expect(unknown.status == 404 && unknown.body.contains("no person 'dora'"), "\(unknown.body)")
            let badRole = try await Self.send(client, .post, "/api/spaces/family/members", anna, #"{"user":"carl","role":"boss"}"#)
            #expect(badRole.status == 422 && badRole.body.contains("'boss' is not a role"), "\(badRole.body)")

            // The operator's token still does everything; a wrong token nothing; a read-only token only reads.
            #expect(try await Self.send(client, .get, "/api/feeds/birthdays", fixture.admin).status == 200)
            #expect(try await Self.send(client, .get, "/api/feeds", Self.bearer("tmp_forged")).status == 401)
            let reader = try await operator_.createPersonToken(login: "anna", label: "reader", readOnly: true).secret
            #expect(try await Self.send(client, .get, "/api/feeds/birthdays/countdowns", Self.bearer(reader)).status == 200)
            #expect(try await Self.send(client, .post, "/api/feeds/birthdays/countdowns", Self.bearer(reader), countdown).status == 403)
            #expect(try await Self.send(client, .get, "/api/health", anna).status == 403, "health is the operator's")

            // Disabled, a person's tokens stop at once; a revoked token too.
            try await operator_.setDisabled(login: "carl", true)
            #expect(try await Self.send(client, .get, "/api/feeds", carl).status == 401)
            let readerId = try #require(try await operator_.personTokens(login: "anna").first { $0.label == "reader" }?.id)
            try await operator_.revokePersonToken(login: "anna", id: readerId)
            #expect(try await Self.send(client, .get, "/api/feeds", Self.bearer(reader)).status == 401)
            #expect(try await operator_.personTokens(login: "anna").first { $0.label == "tests" }?.lastUsedAt != nil, "when it was last used")
        }
    }
}

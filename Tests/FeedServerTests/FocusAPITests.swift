@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Focus sessions over the admin API (issue #42), with a person's token on
/// a live server: one at a time, the running block in the focus feed's
/// calendar, what was done kept when it stops, and the totals.
struct FocusAPITests {
    /// Anna, with a token of hers: the headers a request of hers sends.
    static func anna(_ parts: ServerFixture.Parts, readOnly: Bool) async throws -> HTTPFields {
        let service = parts.dependencies.parts.service
        try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let secret = try await service.createPersonToken(login: "anna", label: readOnly ? "dashboard" : "phone", readOnly: readOnly).secret
        return [.authorization: "Bearer \(secret)", .contentType: "application/json"]
    }

    @Test func aPersonFocusesOverTheAPIAndTheBlockIsInTheirCalendar() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            var anna = try await Self.anna(parts, readOnly: false)
            let start = try await client.execute(uri: "/api/focus", method: .post, headers: anna,
                                                 body: ByteBuffer(string: #"{"tag":"Maths","minutes":25}"#))
            #expect(start.status == .created && String(buffer: start.body).contains(#""phaseEndsAt""#), "\(String(buffer: start.body))")
            let again = try await client.execute(uri: "/api/focus", method: .post, headers: anna, body: ByteBuffer(string: #"{"tag":"Art"}"#))
            #expect(again.status == .conflict && String(buffer: again.body).contains("a session is running: Maths"))
            let bad = try await client.execute(uri: "/api/focus", method: .post, headers: anna, body: ByteBuffer(string: #"{"tag":"Art","mode":"sideways"}"#))
            #expect(bad.status == .unprocessableContent && String(buffer: bad.body).contains("mode"))
            let running = try await client.execute(uri: "/api/focus", method: .get, headers: anna)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(buffer: running.body)) as? [String: Any])
            #expect(state["running"] as? Bool == true && (state["session"] as? [String: Any])?["tag"] as? String == "Maths")

            // The feed is private: its calendar is read with the operator's token here.
            let calendar = try await client.execute(uri: "/api/feeds/focus/export", method: .get, headers: fixture.admin)
            #expect(String(buffer: calendar.body).contains("SUMMARY:Focus: Maths\r\n"), "the running session is a busy block in the focus feed")

            let operatorsFocus = try await client.execute(uri: "/api/focus", method: .get, headers: fixture.admin)
            #expect(operatorsFocus.status == .forbidden, "the operator's token has no focus of its own")
            anna[.contentType] = nil
            fixture.setClock(fixture.clockNow.addingTimeInterval(10 * 60))
            let stopped = try await client.execute(uri: "/api/focus/stop", method: .post, headers: anna)
            let kept = (try JSONSerialization.jsonObject(with: Data(buffer: stopped.body)) as? [String: Any])?["kept"] as? [String: Any]
            #expect(stopped.status == .ok && kept?["tag"] as? String == "Maths" && kept?["focusedSeconds"] as? Int == 600, "\(String(buffer: stopped.body))")
            let stats = try await client.execute(uri: "/api/focus/stats?period=week", method: .get, headers: anna)
            #expect(stats.status == .ok && String(buffer: stats.body).contains("Maths"), "\(String(buffer: stats.body))")
            let wrong = try await client.execute(uri: "/api/focus/stats?period=decade", method: .get, headers: anna)
            #expect(wrong.status == .badRequest)
        }
    }

    /// A read-only token reads a person's focus and changes nothing: no feed is made, no session started.
    @Test func aReadOnlyTokenOnlyReadsFocus() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let reader = try await Self.anna(parts, readOnly: true)
            let state = try await client.execute(uri: "/api/focus", method: .get, headers: reader)
            #expect(state.status == .ok && String(buffer: state.body).contains(#""running""#))
            #expect(try await client.execute(uri: "/api/focus/stats", method: .get, headers: reader).status == .ok)
            let refused = try await client.execute(uri: "/api/focus", method: .post, headers: reader, body: ByteBuffer(string: #"{"tag":"Maths"}"#))
            #expect(refused.status == .forbidden, "\(String(buffer: refused.body))")
            #expect(try await parts.store.feed(slug: "focus") == nil, "reading made no feed")
        }
    }
}

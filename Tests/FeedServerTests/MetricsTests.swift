@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Issue #24, 5: `/metrics` in Prometheus text, behind the admin token; the
/// counters move by exactly the requests made, and no label carries a path,
/// a token or a query string.
struct MetricsTests {
    static func value(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func countersMoveByExactlyTheRequestsMade() async throws {
        let fixture = try ServerFixture(transport: .live)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            for _ in 0..<5 { #expect(try await client.execute(uri: "/feeds/family.ics", method: .get).status == .ok) }
            for _ in 0..<2 { #expect(try await client.execute(uri: "/feeds/family.json?tz=Europe/Berlin", method: .get).status == .ok) }
            let secret = "s3cr3t-token-0123456789abcdef"
            #expect(try await client.execute(uri: "/t/\(secret)/feeds/family.ics", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/no/such/page?key=\(secret)", method: .get).status == .notFound)

            let scraped = try await client.execute(uri: "/metrics", method: .get, headers: fixture.admin)
            #expect(scraped.status == .ok && scraped.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: scraped.body)
            #expect(Self.value(text, #"tminus_http_requests_total{route="/feeds/{slug}.ics",method="GET",status="200"}"#) == 5, "\(text)")
            #expect(Self.value(text, #"tminus_http_requests_total{route="/feeds/{slug}.json",method="GET",status="200"}"#) == 2)
            #expect(Self.value(text, #"tminus_http_request_duration_seconds_count{route="/feeds/{slug}.ics"}"#) == 5)
            #expect(Self.value(text, #"tminus_http_requests_total{route="/metrics",method="GET",status="401"}"#) == 1)
            #expect(text.contains(#"status="404""#))
            #expect(!text.contains(secret) && !text.contains("family") && !text.contains("?"), "no path, token or query in a label")
            #expect(Self.value(text, "tminus_compiled_feeds") == 1)
            #expect(Self.value(text, "tminus_compiled_countdowns") == 3)
            #expect((Self.value(text, "tminus_open_connections") ?? 0) >= 1)
            #expect(Self.value(text, "tminus_render_cache_misses_total") == 2,
                    "the first .ics looked for a kept export (then compiled the feed), one JSON render, then a cache hit")
            #expect(Self.value(text, "tminus_render_cache_hits_total") == 1)
            #expect(Self.value(text, #"tminus_imports_total{via="source",outcome="ok"}"#) == 1, "the feed's file, loaded at start")
        }
    }

    /// Imports through the admin API count by outcome; a refused one changes nothing but the count.
    @Test func importsAreCountedByWayAndOutcome() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:m@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "SUMMARY:Metric\r\nDTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let headers = fixture.admin.merging([.contentType: "text/calendar"])
            #expect(try await client.execute(uri: "/api/feeds/family/import", method: .post, headers: headers, body: ByteBuffer(string: calendar)).status == .ok)
            let broken = calendar.replacingOccurrences(of: "DTSTART;VALUE=DATE:20270101", with: "DTSTART:2027x101")
            let refused = try await client.execute(uri: "/api/feeds/family/import?strict=true", method: .post, headers: headers, body: ByteBuffer(string: broken))
            #expect(refused.status.code >= 400)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: fixture.admin).body)
            #expect(Self.value(text, #"tminus_imports_total{via="api",outcome="ok"}"#) == 1, "\(text)")
            #expect(Self.value(text, #"tminus_imports_total{via="api",outcome="refused"}"#) == 1)
        }
    }
}

@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import TestSupport

/// shared/corpus/hostile through POST /api/feeds/{slug}/import on a live server:
/// every input gets a 2xx or a 4xx with a message, never a 5xx or a dead server,
/// and a refused import leaves the feed as it was.
@Suite(.enabled(if: Corpus.available, "../shared/corpus not found"))
struct HostileImportTests {
    @Test(.timeLimit(.minutes(20)))
    func hostileInputsThroughTheImportEndpoint() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        let files = try Corpus.files(in: "hostile") + [try Corpus.url("large/large.ics"), try Corpus.url("large/stresstest.ics")]
        try await fixture.withServer { client in
            var headers = fixture.admin
            headers[.contentType] = "text/calendar"
            var statuses: [Int: Int] = [:]
            for file in files {
                let (before, _) = try await client.text("/feeds/family.ics")
                let response = try await client.execute(uri: "/api/feeds/family/import?strict=true", method: .post, headers: headers,
                                                        body: ByteBuffer(bytes: [UInt8](try Data(contentsOf: file))))
                let code = Int(response.status.code)
                statuses[code, default: 0] += 1
                #expect(code < 500, "\(file.lastPathComponent): HTTP \(code)")
                if code >= 400 {
                    #expect(String(buffer: response.body).contains("\"message\""), "\(file.lastPathComponent): no message")
                    let (after, _) = try await client.text("/feeds/family.ics")
                    #expect(after.headers[.eTag] == before.headers[.eTag], "\(file.lastPathComponent): a refused import changed the feed")
                }
            }
            #expect(try await client.text("/healthz").0.status == .ok, "the server is still alive")
            // Leniently, the large real-world calendars import what is usable and report the rest.
            for name in ["large/large.ics", "large/stresstest.ics"] {
                let response = try await client.execute(uri: "/api/feeds/family/import", method: .post, headers: headers,
                                                        body: ByteBuffer(bytes: [UInt8](try Data(contentsOf: try Corpus.url(name)))))
                #expect(response.status == .ok, "\(name): HTTP \(response.status.code)")
                let report = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                // stresstest.ics is a property-syntax stress file without a single VEVENT.
                let expectsEvents = name == "large/large.ics"
                #expect(((report?["added"] as? Int ?? 0) > 0) == expectsEvents, "\(name): \(String(buffer: response.body).prefix(200))")
                let diagnostics = (report?["diagnostics"] as? [Any]) ?? []
                #expect(diagnostics.count > 0, "\(name): problems are reported")
            }
            print("hostile imports: \(files.count) files, statuses \(statuses.sorted { $0.key < $1.key })")
        }
    }
}

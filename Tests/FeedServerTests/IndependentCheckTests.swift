@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import TestSupport

/// What the server sends, read by PyPI's icalendar and recurring-ical-events.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct IndependentCheckTests {
    @Test func servedCalendarsParseAndExportedOccurrencesMatch() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timezone: Europe/Berlin\nalarms: true")
        let files = try await fixture.withServer { client -> [String: String] in
            var files: [String: String] = [:]
            for (name, path) in [("exported", "/feeds/family.ics"), ("countdown", "/feeds/family/countdown.ics")] {
                let (response, body) = try await client.text(path)
                #expect(response.status == .ok)
                let file = fixture.directory.appendingPathComponent("\(name).ics")
                try Data(body.utf8).write(to: file)
                files[name] = file.path
            }
            return files
        }
        let verdicts = try await PythonChecker.run(["parse": Array(files.values)])
        for (name, path) in files {
            let verdict = try #require(verdicts[path] as? [String: Any])
            #expect(verdict["ok"] as? Bool == true, "\(name): \(verdict)")
        }
        let exported = try #require(files["exported"]), original = fixture.directory.appendingPathComponent("family.ics").path
        let answer = try await PythonChecker.run(["expand": [exported, original], "from": "2026-11-22T00:00:00", "to": "2027-11-22T00:00:00", "tz": "Europe/Berlin"])
        let served = try #require(answer[exported] as? [[String: Any]]).map { "\($0["uid"]!) \($0["start"]!) \($0["end"]!)" }
        let source = try #require(answer[original] as? [[String: Any]]).map { "\($0["uid"]!) \($0["start"]!) \($0["end"]!)" }
        #expect(served == source, "the exported calendar repeats exactly like its source")
        #expect(served.count > 90, "a year of two standups a week, Christmas and a trip")
    }
}

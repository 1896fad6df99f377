import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// Every calendar fixture of tminus and every corpus calendar is expanded by
/// tminus and by PyPI's recurring-ical-events (the reference Home Assistant and
/// many other tools use), cancelled instances included. They agree, or the file
/// is listed below with the reason tminus differs, or the reference cannot read
/// it at all. The guide's page docs/icalendar.md ("What the iCalendar core handles") lists the same.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct ReferenceAgreementTests {
    /// A wide window: the corpus holds calendars from the 1990s on.
    static let from = "1990-01-01T00:00:00", to = "2036-01-01T00:00:00"

    /// Where tminus reads a calendar differently from recurring-ical-events 3.8 on purpose.
    static let documentedChoices: [String: String] = [
        "dst.ics": "DURATION:PT1H across the New York fold is an exact hour in tminus, as RFC 5545 says; the reference adds it in wall-clock time",
        "duplicate-overrides.ics": "two edits of one instance with the same SEQUENCE: tminus keeps the later LAST-MODIFIED, the reference the first in the file",
        "duplicate-masters-last-modified.ics": "two copies of a master with one SEQUENCE: tminus keeps the later LAST-MODIFIED, the reference the first in the file",
        "duplicate-masters-dtstamp.ics": "two copies of a master with one SEQUENCE and no LAST-MODIFIED: tminus keeps the later DTSTAMP, the reference the first in the file",
        "duplicate-masters-tie.ics": "two copies of a master that nothing tells apart: tminus keeps the last in the file (a tool appends its edits), the reference the first",
        "issue_178_custom_component_contains_other.ics": "a file with no VCALENDAR is not an iCalendar file for tminus (it says what the file holds instead); the reference reads any component",
        "issue_178_component_with_invalid_name_represented.ics": "the same: a bare MYCOMP is refused by tminus; the reference reads it as a calendar without events",
    ]

    /// Fixtures the reference cannot read at all, with what tminus does (checked below).
    static let referenceCannotRead: [String: String] = [
        "unclosed-component.ics": "END:VEVENT is missing: tminus closes it at END:VCALENDAR and keeps both events",
        "rule-count-negative.ics": "COUNT=-1: tminus ignores the COUNT, as the reference does when UNTIL is also given",
        "rscale-leak.ics": "RSCALE=CHINESE: libical expands it; the reference's rule parser refuses RSCALE",
        "vtimezone-without-readable-tzid.ics": "an empty TZID: the reference stops (\"mandatory TZID not found\"); tminus reports it and reads the times as floating",
    ]

    struct Outcome { var agree = 0, documented = 0, unreadable = 0, refusedByBoth = 0; var total = 0 }

    static func check(_ files: [URL], label: String) async throws -> Outcome {
        var outcome = Outcome()
        let theirs = try await IndependentParserTests.pythonRows(files.map(\.path), from: from, to: to, withStatus: true)
        for file in files {
            let name = file.lastPathComponent
            outcome.total += 1
            let ours = try? IndependentParserTests.tminusRows(file, from: from, to: to, withStatus: true)
            guard let reference = theirs[file.path] ?? nil else {
                if ours == nil { outcome.refusedByBoth += 1 } else { outcome.unreadable += 1 }
                continue
            }
            if let ours, ours == reference {
                #expect(documentedChoices[name] == nil, "\(name) now agrees with the reference: drop it from documentedChoices and docs/icalendar.md")
                outcome.agree += 1
            } else if documentedChoices[name] != nil {
                outcome.documented += 1
            } else {
                let mine = ours.map { $0.map { "\($0["start"]!) \($0["summary"]!) \($0["status"]!)" } } ?? ["tminus refuses the file"]
                let other = reference.map { "\($0["start"]!) \($0["summary"]!) \($0["status"]!)" }
                Issue.record("\(label) \(name): tminus and recurring-ical-events disagree\n tminus: \(mine)\n python: \(other)")
            }
        }
        print("reference agreement, \(label): \(outcome.agree) of \(outcome.total) agree, \(outcome.documented) documented choices, "
              + "\(outcome.unreadable) the reference cannot read, \(outcome.refusedByBoth) neither reads")
        return outcome
    }

    static var fixtureFiles: [URL] {
        let walker = FileManager.default.enumerator(at: Fixtures.directory, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "ics" }.sorted { $0.path < $1.path }
    }

    @Test func everyFixtureAgreesWithTheReferenceOrIsDocumented() async throws {
        let outcome = try await Self.check(Self.fixtureFiles, label: "fixtures")
        #expect(outcome.total >= 23)
        #expect(outcome.refusedByBoth == 0)
        #expect(outcome.unreadable == Self.referenceCannotRead.count)
    }

    @Test(.enabled(if: Corpus.available, "../shared/corpus not found"))
    func everyCorpusCalendarAgreesWithTheReferenceOrIsDocumented() async throws {
        let files = try Corpus.files(in: "calendars").filter { $0.pathExtension == "ics" }
        let outcome = try await Self.check(files, label: "corpus")
        #expect(outcome.total >= 100)
        #expect(outcome.agree >= 70)
    }

    /// Every documented choice has its row in the guide's table (docs/icalendar.md,
    /// "What the iCalendar core handles"), and the table lists no choice the code no longer makes.
    @Test func theGuideListsEveryDocumentedChoice() throws {
        let page = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("docs/icalendar.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "# What the iCalendar core handles").dropFirst().first)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") || $0.hasPrefix("| corpus `") }
        for name in Self.documentedChoices.keys {
            let shown = name.hasPrefix("issue_178_") ? "issue_178_*.ics" : name
            #expect(rows.contains { $0.contains("`\(shown)`") || $0.contains("/\(shown)`") }, "docs/icalendar.md's table has no row for \(name)")
        }
        for row in rows {
            let file = row.split(separator: "`")[1].split(separator: "/").last.map(String.init) ?? ""
            #expect(file == "issue_178_*.ics" || Self.documentedChoices[file] != nil, "docs/icalendar.md lists \(file), which is not a documented choice")
        }
    }

    /// The files the reference cannot read are still read by tminus, as the table says.
    @Test(arguments: referenceCannotRead.keys.sorted())
    func tminusReadsWhatTheReferenceCannot(_ name: String) async throws {
        let file = try #require(Self.fixtureFiles.first { $0.lastPathComponent == name })
        let rows = try IndependentParserTests.tminusRows(file, from: Self.from, to: Self.to)
        #expect(rows.count >= 2, "\(name): \(rows)")
        let reference = try await IndependentParserTests.pythonRows([file.path], from: Self.from, to: Self.to)
        #expect((reference[file.path] ?? nil) == nil, "\(name) is now read by the reference: compare it instead")
    }
}

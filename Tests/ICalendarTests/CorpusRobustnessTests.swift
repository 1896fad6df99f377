import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// Every real-world calendar parses or fails with a clear diagnostic, and no
/// hostile input crashes or hangs parse → expand → write.
@Suite(.enabled(if: Corpus.available, "../shared/corpus not found"))
struct CorpusRobustnessTests {
    /// Parses, expands a decade and writes; returns the outcome as one word.
    static func exercise(_ data: Data) -> (outcome: String, detail: String) {
        do {
            let result = try ICalendarParser.parse(data: data)
            let calendar = result.calendar
            let window = DateInterval(start: Fixtures.instant("20200101T000000Z"), end: Fixtures.instant("20300101T000000Z"))
            _ = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 5_000)
            _ = CalendarWriter().bytes(calendar)
            return result.errors.isEmpty ? ("clean", "") : ("diagnosed", result.errors.first!.description)
        } catch let error as ICalendarError {
            return ("rejected", error.description)
        } catch {
            return ("rejected", "\(error)")
        }
    }

    @Test(.timeLimit(.minutes(20)))
    func everyCalendarParsesOrFailsClearly() throws {
        var counts: [String: Int] = [:]
        for url in try Corpus.files(in: "calendars") {
            let (outcome, detail) = Self.exercise(try Data(contentsOf: url))
            counts[outcome, default: 0] += 1
            if outcome != "clean" {
                // A diagnostic or rejection must say where or why, not just "failed".
                #expect(detail.contains("line ") || detail.contains("not an iCalendar") || detail.contains("limit"),
                        "\(url.lastPathComponent): unclear message '\(detail)'")
            }
        }
        print("corpus calendars: \(counts["clean", default: 0]) clean, \(counts["diagnosed", default: 0]) parsed with diagnostics, \(counts["rejected", default: 0]) rejected")
        #expect(counts.values.reduce(0, +) >= 120)
    }

    @Test(.timeLimit(.minutes(20)))
    func hostileInputsNeitherCrashNorHang() throws {
        var counts: [String: Int] = [:]
        let files = try Corpus.files(in: "hostile")
        for url in files {
            let started = Date()
            let (outcome, _) = Self.exercise(try Data(contentsOf: url))
            counts[outcome, default: 0] += 1
            #expect(Date().timeIntervalSince(started) < 20, "\(url.lastPathComponent) took too long")
        }
        print("corpus hostile: \(counts.values.reduce(0, +)) inputs survived (\(counts["clean", default: 0]) clean, \(counts["diagnosed", default: 0]) diagnosed, \(counts["rejected", default: 0]) rejected)")
        #expect(counts.values.reduce(0, +) == files.count && files.count >= 50)
    }

    /// parse → write → parse gives equal values, and writing is byte-stable.
    @Test func roundTripIsLosslessAndByteStable() throws {
        var checked = 0
        for url in try Corpus.files(in: "calendars") where url.pathExtension == "ics" {
            guard let first = try? ICalendarParser.parse(data: try Data(contentsOf: url)) else { continue }
            let writer = CalendarWriter(timeZones: .keep)
            for calendar in first.calendars {
                let bytes = writer.bytes(calendar)
                #expect(writer.bytes(calendar) == bytes, "\(url.lastPathComponent): two writes differ")
                let again = try ICalendarParser.parse(data: bytes)
                #expect(again.calendars.count == 1)
                #expect(again.calendars.first == calendar, "\(url.lastPathComponent): values changed in a round trip")
                #expect(writer.bytes(again.calendars[0]) == bytes, "\(url.lastPathComponent): rewrite is not byte-stable")
                // The interoperable form is stable too.
                let normalized = CalendarWriter().bytes(calendar)
                #expect(CalendarWriter().bytes(try ICalendarParser.parse(data: normalized).calendar) == normalized,
                        "\(url.lastPathComponent): normalized output is not a fixed point")
                checked += 1
            }
        }
        print("round trip: \(checked) calendars parse → write → parse equal and byte-stable")
        #expect(checked > 90)
    }

    @Test func largeCalendarsParse() throws {
        for name in ["large/large.ics", "large/stresstest.ics"] {
            let (outcome, detail) = Self.exercise(try Data(contentsOf: try Corpus.url(name)))
            #expect(outcome != "rejected", "\(name): \(detail)")
        }
    }
}

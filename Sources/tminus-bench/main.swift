import Foundation
import ICalendar

// `make bench`: tminus's iCalendar core timed against a reference in the same run.
// Timings are medians; the machine is shared, so compare ratios, not absolutes.

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "bare-server" {
    try await BareServer.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "people-store" {
    try await PeopleBench.populate(path: CommandLine.arguments[2], movingIntoTheirSpace: Array(CommandLine.arguments.dropFirst(3)))
    exit(0)
}

let runs = 5
let python = ProcessInfo.processInfo.environment["TMINUS_PYTHON"] ?? "python3"
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shared = root.appendingPathComponent("../shared").standardizedFileURL

func median(_ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return samples.sorted()[runs / 2]
}

func shell(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

func report(_ label: String, tminus: Double, reference: Double?, referenceName: String) {
    let ratio = reference.map { String(format: "%6.1fx faster", $0 / tminus) } ?? "   (no reference)"
    print(String(format: "%-58@ tminus %9.4f s   %@ %9.4f s   %@", label as NSString, tminus,
                 referenceName.padding(toLength: 22, withPad: " ", startingAt: 0) as NSString, reference ?? .nan, ratio as NSString))
}

func pythonReference(_ arguments: [String]) -> Double? {
    // nil when the reference cannot read the file (python rejects large.ics, for one)
    shell([python, root.appendingPathComponent("bench/reference.py").path] + arguments)
        .flatMap { Double($0.split(separator: " ").first ?? "") }
}

var inputs: [(String, URL)] = []
let large = shared.appendingPathComponent("corpus/large/large.ics")
if FileManager.default.fileExists(atPath: large.path) { inputs.append(("corpus large.ics", large)) }
let generated = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tminus-bench-10000.ics")
if !FileManager.default.fileExists(atPath: generated.path),
   FileManager.default.fileExists(atPath: shared.appendingPathComponent("bench/gen_calendar.py").path) {
    _ = shell(["python3", shared.appendingPathComponent("bench/gen_calendar.py").path, "10000", generated.path])
}
if FileManager.default.fileExists(atPath: generated.path) { inputs.append(("generated 10,000 events", generated)) }
if inputs.isEmpty { print("note: ../shared is not beside the clone; only the recurrence benchmark runs") }

for (label, url) in inputs {
    let data = try Data(contentsOf: url)
    var events = 0
    let parse = try median { events = try ICalendarParser.parse(data: data).calendar.events.count }
    report("parse \(label) (\(data.count / 1024) KiB, \(events) events)", tminus: parse,
           reference: pythonReference(["parse", url.path, "\(runs)"]), referenceName: "python icalendar")

    let calendar = try ICalendarParser.parse(data: data).calendar
    let window = DateInterval(start: Zone.utc.instant(of: LocalDateTime(year: 2026, month: 1, day: 1)),
                              end: Zone.utc.instant(of: LocalDateTime(year: 2027, month: 1, day: 1)))
    var count = 0
    let expand = median {
        count = OccurrenceExpander(calendar: calendar).occurrences(of: calendar.events, in: window, limit: 10_000_000).occurrences.count
    }
    report("expand \(label), 2026 (\(count) occurrences)", tminus: expand,
           reference: pythonReference(["expand", url.path, "2026-01-01T00:00:00", "2027-01-01T00:00:00", "\(runs)"]),
           referenceName: "recurring-ical-events")
}

// Next occurrence of a yearly rule that began in 1900: libical's set_start jump
// against walking every year from DTSTART (what a naive iterator does).
let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=12")
let start = LocalDateTime(year: 1900, month: 3, day: 12, hour: 9)
let now = LocalDateTime(year: 2026, month: 11, day: 22)
let horizon = LocalDateTime(year: 2027, month: 11, day: 22)
let expander = RuleExpander(rule: rule, start: start, isDate: false)
let queries = 2000
var jumped: LocalDateTime?
var walked: LocalDateTime?
let jump = median { for _ in 0..<queries { jumped = expander.expand(from: now, to: horizon, limit: 1).occurrences.first } }
let walk = median { for _ in 0..<queries { walked = expander.expand(from: nil, to: horizon, limit: 10_000).occurrences.first { $0 >= now } } }
precondition(jumped == walked, "jump and walk disagree: \(String(describing: jumped)) vs \(String(describing: walked))")
report("next of a yearly rule from 1900 (×\(queries))", tminus: jump, reference: walk, referenceName: "walk from DTSTART")

// Who a signed-in request is, and what they may do: with the cache and without (issue #37).
try await PeopleBench.run()

import Foundation
import ICalendar

/// parse → expand one year (bounded) → write → parse again. What tminus wrote
/// must parse again with no more events than it had.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTrip(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    guard let calendar = try? ICalendarParser.parse(data: bytes).calendar else { return 0 }
    let window = DateInterval(start: Date(timeIntervalSince1970: 1_767_225_600), duration: 365 * 86_400)   // 2026
    _ = OccurrenceExpander(calendar: calendar).occurrences(of: calendar.events.map(\.component) + calendar.todos.map(\.component), in: window, limit: 2_000)
    let written = CalendarWriter().bytes(calendar)
    guard let again = try? ICalendarParser.parse(data: written).calendar else {
        fatalError("tminus wrote a calendar it cannot read back:\n\(String(decoding: written, as: UTF8.self))")
    }
    precondition(again.events.count <= calendar.events.count, "events appeared on the round trip")
    return 0
}

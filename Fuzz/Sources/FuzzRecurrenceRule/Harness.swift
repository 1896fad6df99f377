import ICalendar

/// The RRULE parser, and for every rule it accepts, a bounded expansion from a
/// start chosen by the input: an accepted rule must expand without hanging.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecurrenceRule(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    guard let rule = try? RecurrenceRule(parsing: String(decoding: bytes, as: UTF8.self)) else { return 0 }
    let seed = bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }
    let start = LocalDateTime(year: 1990 + seed % 60, month: 1 + seed % 12, day: 1 + seed % 28, hour: seed % 24)
    let expander = RuleExpander(rule: rule, start: start, isDate: seed % 3 == 0)
    _ = expander.expand(from: LocalDateTime(year: 2026, month: 1, day: 1), to: LocalDateTime(year: 2027, month: 1, day: 1), limit: 1_000)
    return 0
}

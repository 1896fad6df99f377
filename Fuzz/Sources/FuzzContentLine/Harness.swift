import ICalendar

/// The content-line parser on one arbitrary line, then the whole reader
/// (unfolding, nesting, values) on the same bytes as a file.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentLine(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    for line in text.split(separator: "\n", maxSplits: 64) {
        _ = try? ContentLineParser.parse(line)
    }
    _ = try? ICalendarParser.parse(data: bytes)
    return 0
}

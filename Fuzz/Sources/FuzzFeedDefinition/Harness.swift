import Subscriptions

/// The `feeds/*.yaml` loader on arbitrary text: a definition is usable or
/// refused with a message, never a crash.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedDefinition(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = FeedDefinitionCheck.problem(in: text, file: "/nonexistent/feeds/fuzz.yaml")
    return 0
}

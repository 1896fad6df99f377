import Countdowns
import Foundation
import ICalendar

/// The documents the admin API decodes (a countdown draft, feed settings),
/// decoded from arbitrary bytes and applied as the routes apply them.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdminJSON(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: count))
    if let draft = try? JSONDecoder().decode(CountdownDraft.self, from: body) {
        if let countdown = try? draft.makeCountdown(uid: "fuzz@tminus", feedZone: "Europe/Berlin") {
            var edited = countdown
            _ = try? draft.apply(to: &edited, feedZone: "Europe/Berlin")
            _ = RemainingTimeCalculator(now: Date(timeIntervalSince1970: 1_795_338_000), zone: .utc).remaining(for: edited)
        }
    }
    if let settings = try? JSONDecoder().decode(FeedSettingsDocument.self, from: body) {
        var feed = Feed(slug: "fuzz")
        _ = try? settings.apply(to: &feed)
    }
    return 0
}

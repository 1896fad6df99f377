import Foundation
import NIOCore

/// How big a feed's two calendars are, against what clients are known to read.
/// Google Calendar stops reading a subscription near 1 MB (the countdown
/// calendar's `maxEvents` default keeps it near 900 KB for that reason). Apple
/// Calendar and Outlook publish no limit and none was measured here, so only
/// Google's is checked. Shown at `/api/health` and, as a warning, on the web
/// app's feed page.
package struct OutputBudget: Codable, Sendable, Equatable {
    package struct Output: Codable, Sendable, Equatable {
        package var bytes: Int
        package var events: Int
    }

    package static let googleLimitBytes = 1_000_000

    package var feed: String
    package var exported: Output
    package var countdownCalendar: Output
    package var warnings: [String]

    /// Measures both calendars as served now (the countdown calendar comes
    /// from the render cache, or is rendered once for it).
    package static func measure(_ compiled: CompiledFeed, renderer: FeedRenderer) async throws -> OutputBudget {
        let calendar = try await renderer.countdownCalendar(compiled)
        // One sent from the store is not held: its events are counted from the countdowns (overrides not included).
        let exported = Output(bytes: compiled.exported.byteCount,
                              events: compiled.exported.streamed == nil ? components(in: compiled.exported.body) : compiled.series.count)
        let countdown = Output(bytes: calendar.byteCount, events: components(in: calendar.body))
        var warnings: [String] = []
        for (name, output) in [("the calendar", exported), ("the countdown calendar", countdown)] where output.bytes > googleLimitBytes {
            warnings.append("\(name) is \(output.bytes / 1000) KB: Google Calendar stops reading subscriptions near 1,000 KB")
        }
        return OutputBudget(feed: compiled.slug, exported: exported, countdownCalendar: countdown, warnings: warnings)
    }

    /// VEVENTs and VTODOs in a calendar's bytes (each begins on a line of its own).
    package static func components(in body: ByteBuffer) -> Int {
        let text = String(buffer: body)
        return ["\r\nBEGIN:VEVENT\r\n", "\r\nBEGIN:VTODO\r\n"].reduce(0) { $0 + text.components(separatedBy: $1).count - 1 }
    }
}

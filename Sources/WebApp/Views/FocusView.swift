import Countdowns
import Foundation
import ICalendar
import Pages
import Services

/// The focus page (issue #42): the running session's large timer, or the
/// form that starts one, and what the person's focused time adds up to.
package struct FocusView: TemplateView {
    package struct Running {
        package var tag: String
        package var phase: String
        package var round: String?
        /// Where the page's script counts to and from: the server's instants, not the page's ticks.
        package var endsAt: String
        package var phaseStartedAt: String
        package var serverNow: String
        package var remaining: Int
        package var elapsed: Int
        package var phaseSeconds: Int
        package var countsUp: Bool
        package var paused: Bool
        /// What happens next, in words: the break that follows, or that stop keeps what was done.
        package var next: String
        package var shown: String
        package var notifyTitle: String
    }

    package struct Tag {
        package var name: String
        package var color: String
        package var time: String
        package var share: String
        package var width: String
    }

    package struct Choice {
        package var value: String
        package var label: String
        package var selected: Bool
    }

    package var running: Running?
    package var modes: [Choice]
    package var knownTags: [String]
    package var periods: [Choice]
    package var periodLabel: String
    /// The period before and after, as the statistics page pages.
    package var previous: String
    package var next: String
    package var tags: [Tag]
    package var total: String
    package var chart: String
    package var streak: String
    package var level: String
    package var levelPoints: String
    package var levelPercent: Int
    package var feed: String

    package var templateValues: [String: Any] { ["isRunning": running != nil, "isEmpty": tags.isEmpty] }

    /// Colours for tags that have none of their own, in turn.
    static let palette = ["#FF9500", "#5856D6", "#34C759", "#FF2D55", "#007AFF", "#AF52DE", "#FFCC00", "#5AC8FA"]

    package static func clock(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        return seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60) : String(format: "%02d:%02d", seconds / 60, seconds % 60)
    }

    /// "1 h 5 min", "25 min", "< 1 min", in the page's language's digits.
    package static func time(seconds: Int, _ words: WebWords) -> String {
        let minutes = (seconds + 30) / 60
        if seconds > 0, minutes == 0 { return words["focus.underAMinute"] }
        return minutes >= 60 ? words["focus.hoursMinutes", ["h": String(minutes / 60), "m": String(minutes % 60)]] : words["focus.minutesShort", ["m": String(minutes)]]
    }
}

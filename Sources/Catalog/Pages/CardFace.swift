import Countdowns
import ICalendar

/// What a card shows, shared by the HTML page and the SVG card: the big number
/// and its unit ("78" / "Days"), or a word ("Today"), plus colours and the date line.
package struct CardFace {
    package var big: String
    package var unit: String
    package var title: String
    package var dateLine: String
    package var gradient: (String, String)
    package var textColor: String
    /// Whole percent of the span that has passed, when the countdown has a span.
    package var percent: Int?
    /// "62% of the time has passed", in the card's language.
    package var progressText = ""

    /// How long the big text is, which decides its size on the page and the
    /// card: a number fits large, a word ("Completed", "In progress") must
    /// shrink to stay inside the circle.
    package enum Length: String { case short, medium, long }
    package var length: Length { big.count <= 3 ? .short : big.count <= 6 ? .medium : .long }

    /// Pleasant defaults for countdowns without colours, picked by UID so they stay put.
    package static let palette = [("#FF3B30", "#FF9500"), ("#5856D6", "#AF52DE"), ("#34C759", "#30B0C7"),
                          ("#007AFF", "#5AC8FA"), ("#FF2D55", "#FF9F0A"), ("#8E8E93", "#48484A")]

    /// `remaining.text` is already in `language`; the unit line and the date follow it.
    package init(countdown: Countdown, remaining: RemainingTime, language: Language = .english) {
        switch (remaining.state, countdown.status, remaining.unit) {
        case (_, .cancelled, _), (_, .completed, _), (.today, _, _), (.running, _, _), (_, _, .detailed):
            big = remaining.text
            unit = ""
        default:
            big = String(remaining.amount)
            let word = Language.capitalized(language.unitWord(remaining.amount, remaining.unit))
            unit = remaining.state == .past && !remaining.isCountingUp ? language.agoLabel(word) : word
        }
        title = remaining.title
        dateLine = language == .english ? Self.format(remaining.date) : language.format(remaining.date)
        let colors = countdown.presentation.gradient
        let fallback = Self.palette[Int(StableHash.value(countdown.uid) % UInt64(Self.palette.count))]
        gradient = (colors.first ?? fallback.0, colors.count > 1 ? colors[1] : (colors.first ?? fallback.1))
        textColor = countdown.presentation.textColor ?? "#FFFFFF"
        percent = remaining.progress.map { Int(($0 * 100).rounded(.down)) }
        progressText = percent.map { language.page("progress", ["percent": "\($0)"]) } ?? ""
    }

    package static func format(_ date: CivilDate) -> String {
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[date.weekday]), \(date.day) \(months[date.month - 1]) \(date.year)"
    }
}

import Countdowns
import Foundation
import ICalendar

/// One countdown as the app lists it: the same face the public card shows
/// (`CardFace`), plus what the owner acts on.
struct CountdownRow {
    var id: Int64
    var title: String
    var big: String
    var unit: String
    var dateLine: String
    var repeats: String?
    var from: String
    var to: String
    var ink: String
    var image: String?
    var categories: [String]
    var isTask: Bool
    var isOpenTask: Bool
    var isDone: Bool
    var isCancelled: Bool
    var priority: Int?
    var state: String

    /// `remaining` is already in the words' language (the calculator was made with it).
    init(countdown: Countdown, remaining: RemainingTime, imageURL: (String) -> String?, words: WebWords) {
        let face = CardFace(countdown: countdown, remaining: remaining, language: words.language)
        id = countdown.id ?? 0
        title = face.title
        big = face.big
        unit = face.unit
        dateLine = face.dateLine
        repeats = countdown.isRepeating ? RepeatText.text(countdown.repeatRule, words) : nil
        (from, to) = face.gradient
        ink = face.textColor
        image = countdown.presentation.image.flatMap(imageURL)
        categories = countdown.categories
        isTask = countdown.kind == .task
        isDone = countdown.status == .completed
        isCancelled = countdown.status == .cancelled
        isOpenTask = isTask && countdown.status == .active
        priority = countdown.priority.flatMap { $0 > 0 ? $0 : nil }
        state = remaining.state.rawValue
    }
}

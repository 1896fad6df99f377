import Catalog
import Countdowns
import Foundation
import ICalendar
import Pages

/// One countdown as the app lists it: the same face the public card shows
/// (`CardFace`), plus what the owner acts on.
package struct CountdownRow {
    package var id: Int64
    package var title: String
    package var big: String
    package var unit: String
    package var dateLine: String
    package var repeats: String?
    /// The rule as written, beside its words (a tooltip): the detail for whoever knows RRULEs.
    package var repeatsRule: String?
    package var from: String
    package var to: String
    package var ink: String
    package var image: String?
    package var categories: [String]
    package var isTask: Bool
    package var isOpenTask: Bool
    package var isDone: Bool
    package var isCancelled: Bool
    package var priority: Int?
    package var state: String
    /// "added by anna", on a space's feed, where several people add.
    package var addedBy: String?

    /// `remaining` is already in the words' language (the calculator was made with it).
    package init(countdown: Countdown, remaining: RemainingTime, imageURL: (String) -> String?, words: WebWords, showAddedBy: Bool = false) {
        let face = CardFace(countdown: countdown, remaining: remaining, language: words.language)
        id = countdown.id ?? 0
        title = face.title
        big = face.big
        unit = face.unit
        dateLine = face.dateLine
        repeats = countdown.isRepeating ? RepeatText.text(countdown.repeatRule, words) : nil
        if case .rule(let written) = countdown.repeatRule, repeats != written { repeatsRule = written }
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
        addedBy = showAddedBy ? countdown.createdBy.map { words["feed.addedBy", ["who": $0]] } : nil
    }
}

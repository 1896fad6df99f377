import Countdowns
import Foundation
import Hummingbird
import Pages

/// What every page's layout reads, around the page's own view (`page`).
package struct PageContext: TemplateView {
    package var title: String
    package var csrf: String
    package var signedIn: Bool
    /// "Signed in as Anna", beside "Sign out".
    package var signedInAs: String?
    /// The signed-in person administers the server: the People page is theirs.
    package var isAdmin = false
    package var flash: String?
    package var undo: String?
    /// Which navigation entry is current: "feeds", "timeline", "tasks", "stats", "focus" ….
    package var section: String
    /// Where the language switch sends the browser back to: this page.
    package var back: String
    package var languages: [LanguageChoice]
    package var page: Any

    package var templateValues: [String: Any] {
        ["navFeeds": section == "feeds", "navTimeline": section == "timeline", "navTasks": section == "tasks", "navStats": section == "stats", "navFocus": section == "focus",
         "navAccount": section == "account", "navSpaces": section == "spaces", "navPeople": section == "people"]
    }
}

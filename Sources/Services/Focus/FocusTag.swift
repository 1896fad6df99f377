import Countdowns

/// A focus tag is a category of the person's focus feed: its name is checked
/// as a category's (clean text, not empty), and must stay one category when
/// written (no comma, which splits CATEGORIES) and short enough for a card.
enum FocusTag {
    static let longest = 64

    static func checked(_ text: String) throws -> String {
        let name = SafeText.clean(text).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw FocusProblem.invalid(FocusInvalid(field: "tag", message: "a session needs a tag (what you focus on, e.g. Maths)")) }
        guard !name.contains(",") else { throw FocusProblem.invalid(FocusInvalid(field: "tag", message: "'\(name)' has a comma, which would make it two tags")) }
        guard name.count <= longest else { throw FocusProblem.invalid(FocusInvalid(field: "tag", message: "a tag is at most \(longest) characters")) }
        return name
    }
}

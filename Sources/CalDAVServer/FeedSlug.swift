import Countdowns

/// A feed address made from a calendar app's collection name: lower case,
/// letters, digits and dashes, at most 64 (`Feed.isValidSlug`). The same
/// segment always gives the same address, so the path the app made keeps
/// answering.
enum FeedSlug {
    static func from(_ segment: String) -> String {
        if Feed.isValidSlug(segment) { return segment }
        var slug = ""
        var dash = false
        for character in segment.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
                dash = false
            } else if !dash, !slug.isEmpty {
                slug.append("-")
                dash = true
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(64))
    }
}

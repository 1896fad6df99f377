import Foundation

extension Feed {
    /// The slug a file's name suggests ("Family Birthdays (2026).ics" →
    /// "family-birthdays-2026"): lower case, letters and digits kept, accents
    /// dropped, anything else one dash; nil when nothing usable is left.
    public static func slug(suggestedBy fileName: String) -> String? {
        var stem = (fileName as NSString).lastPathComponent
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        let folded = stem.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX")).lowercased()
        var slug = ""
        for scalar in folded.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        slug = String(slug.prefix(64))
        while slug.last == "-" { slug.removeLast() }
        return isValidSlug(slug) ? slug : nil
    }
}

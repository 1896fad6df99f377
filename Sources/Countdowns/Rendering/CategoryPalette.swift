/// Colours for categories the user gave none: told apart from each other and
/// from the colours the user did set, and legible as marks on the light page
/// and the dark one.
///
/// Each colour has at least 3:1 contrast (WCAG 2.1 §1.4.11, graphics) against
/// white, against the dark page (#121214) and against the dark panel (#1E1E22),
/// held by `CategoryPaletteTests`. Hues follow each other so that neighbours in
/// a sorted list differ most. A category's colour used to come from a hash of
/// its name into eight colours: Bill and Birthday were both purple, and Exam,
/// Holiday and Uncategorised all green (issue #26).
public enum CategoryPalette {
    public static let colors = [
        "#1E88E5",   // blue
        "#E65100",   // orange
        "#2E7D32",   // green
        "#AB47BC",   // purple
        "#D32F2F",   // red
        "#00838F",   // teal
        "#827717",   // olive
        "#D81B60",   // pink
        "#5C6BC0",   // indigo
        "#8D6E63",   // brown
        "#B8860B",   // gold
        "#546E7A",   // blue grey
    ]

    /// What has no category: a neutral grey, never one of `colors`.
    public static let uncategorised = "#808089"

    /// A colour for each of `names`: the one `set` gives it (the user's
    /// always wins), else the next palette colour that neither a set colour
    /// nor an earlier name took, in the order of `names`. Past twelve such
    /// names the palette is used again from the start.
    public static func assign(_ names: [String], set: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        var taken = Set(names.compactMap { set[$0]?.uppercased() })
        var next = 0
        for name in names where result[name] == nil {
            if let chosen = set[name] {
                result[name] = chosen
            } else {
                let free = colors.indices.lazy.map { (next + $0) % colors.count }.first { !taken.contains(colors[$0]) } ?? next % colors.count
                result[name] = colors[free]
                taken.insert(colors[free])
                next = free + 1
                if taken.isSuperset(of: colors) { taken = [] }
            }
        }
        return result
    }

    /// Every category of `feeds` with its colour: the same on the statistics
    /// page and the timeline. Names in the statistics' order (by name, any
    /// case); a colour set by a feed wins, the first feed's when two differ.
    public static func colors(for feeds: [Agenda.FeedSeries]) -> [String: String] {
        var set: [String: String] = [:]
        var names = Set<String>()
        for feed in feeds {
            for (name, color) in feed.categoryColors where set[name] == nil { set[name] = color }
            for series in feed.series { names.formUnion(series.countdown.categories) }
        }
        return assign(names.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }, set: set)
    }
}

/// "Did you mean …?" for a misspelt keyword: the one known word a single slip
/// away (two for longer words), counted as edits of one letter.
package enum Spelling {
    /// The closest of `known` to `word`, when it is close enough and the only one that close.
    package static func suggestion(for word: String, among known: some Sequence<String>) -> String? {
        let typed = Array(word.uppercased().utf8)
        let limit = typed.count > 5 ? 2 : 1
        var best: (word: String, distance: Int, tie: Bool)?
        for candidate in known {
            let distance = self.distance(typed, Array(candidate.uppercased().utf8), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, current.distance <= distance {
                if current.distance == distance { best?.tie = true }
                continue
            }
            best = (candidate, distance, false)
        }
        guard let best, !best.tie else { return nil }
        return best.word
    }

    /// Edit distance (insert, delete, replace, swap two neighbours), stopped early past `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
                rowBest = min(rowBest, current[j])
            }
            if rowBest > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

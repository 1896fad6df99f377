/// A regular expression matched in time linear in the text: a Thompson NFA
/// run as a Pike VM, never backtracking. Feed rules match patterns that people
/// write against titles that calendars send, and a backtracking engine
/// (NSRegularExpression, Swift's Regex) takes exponential time on a pattern
/// like `(a+)+$` against a long title of `a`s (issue #26).
///
/// The syntax is the common subset: literals, `.`, `[…]` classes with ranges
/// and negation, `\d \w \s` and their negations, escapes, groups `(…)` and
/// `(?:…)`, `|`, `* + ?` and `{m}`, `{m,}`, `{m,n}` (lazy forms match the same),
/// anchors `^ $`, and a leading `(?i)` for case-insensitive matching.
/// Backreferences and lookaround cannot run in linear time and are refused.
public struct LinearPattern: Sendable {
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var pattern: String
        public var reason: String
        public var description: String { "pattern '\(pattern)': \(reason)" }
    }

    /// The most steps a pattern compiles to: its instructions (`{1000}` of a
    /// group repeats it) and the ranges of its classes, which each character
    /// is tested against (a 15 KB class repeated 1,000 times was one step each).
    public static let maxProgram = 5_000

    /// The most of a field a pattern reads: 64 KiB of UTF-8. The rest of a
    /// longer text is left as it is (never matched, never replaced), so that
    /// a 1 MB description costs what 64 KiB does; `$` does not match there.
    public static let maxTextBytes = 65_536

    public let source: String
    package let program: [Instruction]
    private let caseInsensitive: Bool

    public init(_ source: String) throws {
        self.source = source
        var text = Substring(source)
        caseInsensitive = text.hasPrefix("(?i)")
        if caseInsensitive { text = text.dropFirst(4) }
        var parser = Parser(scalars: Array(text.unicodeScalars), pattern: source, caseInsensitive: caseInsensitive)
        let node = try parser.parseWhole()
        var compiler = Compiler(pattern: source)
        try compiler.emit(node)
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the pattern matches anywhere in `text` (its first `maxTextBytes`).
    public func matches(_ text: String) -> Bool {
        matches(text) { () throws(Never) in }
    }

    /// `matches`, calling `check` now and then: it throws to stop a long match (`WorkBudget`).
    public func matches<Failure: Error>(_ text: String, check: () throws(Failure) -> Void) throws(Failure) -> Bool {
        let (head, whole) = Self.readable(Array(text.unicodeScalars))
        let scalars = caseInsensitive ? head.map(Self.lowered) : Array(head)
        // `$` matches only at the real end: a cut text has none.
        let length = whole ? scalars.count : -1
        var current = ThreadList(count: program.count)
        var next = ThreadList(count: program.count)
        for position in 0...scalars.count {
            if position & 255 == 255 { try check() }
            // Unanchored search: a new thread starts at every position.
            if add(0, at: position, length: length, to: &current) { return true }
            guard position < scalars.count else { break }
            let scalar = scalars[position]
            next.clear()
            for pc in current.pcs {
                if case .consume(let matcher) = program[pc], matcher.accepts(scalar) {
                    if add(pc + 1, at: position + 1, length: length, to: &next) { return true }
                }
            }
            swap(&current, &next)
        }
        return false
    }

    /// The text with every match replaced by `replacement` (literally: no
    /// group references), leftmost first and, among matches starting at one
    /// place, the one a backtracking engine would take (greedy, first branch
    /// first). An empty match replaces nothing and moves on a character. Only
    /// the first `maxTextBytes` are read; the rest is kept as it is.
    ///
    /// Linear in the text for a fixed pattern (`LiveStates`): a reverse pass
    /// marks, at each position, the instructions from which a match can still
    /// be reached; each match is then walked forward in priority order through
    /// those alone, so finding where it ends never scans past it. (The old
    /// way, one Pike VM run per match, scanned to the end of the text for
    /// each match of `a(.*z)?`: 115 s for a 40,000-character description.)
    public func replacingMatches(in text: String, with replacement: String) -> String {
        replacingMatches(in: text, with: replacement) { () throws(Never) in }
    }

    /// `replacingMatches`, calling `check` now and then: it throws to stop (`WorkBudget`).
    public func replacingMatches<Failure: Error>(in text: String, with replacement: String,
                                                 check: () throws(Failure) -> Void) throws(Failure) -> String {
        let original = Array(text.unicodeScalars)
        let (head, whole) = Self.readable(original)
        let scalars = caseInsensitive ? head.map(Self.lowered) : Array(head)
        let length = whole ? scalars.count : -1
        let matches: [Range<Int>]
        if let live = try LiveStates(program, scalars, length: length, check: check) {
            matches = try live.matches(check: check)
        } else {
            matches = try pikeMatches(scalars, length: length, check: check)
        }
        guard !matches.isEmpty else { return text }
        var result = String.UnicodeScalarView()
        var copied = 0
        for match in matches {
            result.append(contentsOf: original[copied..<match.lowerBound])
            result.append(contentsOf: replacement.unicodeScalars)
            copied = match.upperBound
        }
        result.append(contentsOf: original[copied...])
        return String(result)
    }

    /// The scalars a pattern reads (at most `maxTextBytes` of UTF-8), and whether that is all of them.
    package static func readable(_ scalars: [Unicode.Scalar]) -> (ArraySlice<Unicode.Scalar>, Bool) {
        var bytes = 0
        for (index, scalar) in scalars.enumerated() {
            bytes += UTF8.width(scalar)
            if bytes > maxTextBytes { return (scalars[..<index], false) }
        }
        return (scalars[...], true)
    }

    /// The non-empty matches one Pike VM run each: the way when the text has
    /// more kinds of position than `LiveStates` keeps (quadratic at worst, so
    /// `check` matters here).
    package func pikeMatches<Failure: Error>(_ scalars: [Unicode.Scalar], length: Int,
                                             check: () throws(Failure) -> Void) throws(Failure) -> [Range<Int>] {
        var matches: [Range<Int>] = []
        var position = 0
        while position <= scalars.count, let match = try firstMatch(in: scalars, from: position, length: length, check: check) {
            if match.isEmpty {
                position = match.lowerBound + 1
                continue
            }
            matches.append(match)
            position = match.upperBound
        }
        return matches
    }

    /// One scalar in lower case when that is one scalar, so positions in the
    /// lowered text are positions in the original.
    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    /// The leftmost match starting at or after `start`, as scalar offsets.
    package func firstMatch<Failure: Error>(in scalars: [Unicode.Scalar], from start: Int, length: Int,
                                    check: () throws(Failure) -> Void) throws(Failure) -> Range<Int>? {
        var current = ThreadList(count: program.count)
        var next = ThreadList(count: program.count)
        var found: Range<Int>?
        var position = start
        while true {
            if position & 255 == 255 { try check() }
            // A new thread, at the lowest priority, until something has matched.
            if found == nil, let begin = add(0, start: position, at: position, length: length, to: &current) {
                found = begin..<position
            }
            guard position < scalars.count, !current.pcs.isEmpty || found == nil else { break }
            let scalar = scalars[position]
            next.clear()
            for (index, pc) in current.pcs.enumerated() {
                if case .consume(let matcher) = program[pc], matcher.accepts(scalar),
                   let begin = add(pc + 1, start: current.starts[index], at: position + 1, length: length, to: &next) {
                    found = begin..<(position + 1)
                    break  // the threads after this one have lower priority
                }
            }
            swap(&current, &next)
            position += 1
        }
        return found
    }

    /// `add` for a thread that remembers where it started: the start when it reaches a match.
    private func add(_ pc: Int, start: Int, at position: Int, length: Int, to list: inout ThreadList) -> Int? {
        var stack = [pc]
        while let pc = stack.popLast() {
            guard list.insert(pc, start: start) else { continue }
            switch program[pc] {
            case .match: return start
            case .jump(let target): stack.append(target)
            case .split(let first, let second): stack.append(second); stack.append(first)
            case .start: if position == 0 { stack.append(pc + 1) }
            case .end: if position == length { stack.append(pc + 1) }
            case .consume: break
            }
        }
        return nil
    }

    /// Follows jumps, splits and assertions from `pc`; true when it reaches a match.
    private func add(_ pc: Int, at position: Int, length: Int, to list: inout ThreadList) -> Bool {
        var stack = [pc]
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second): stack.append(second); stack.append(first)
            case .start: if position == 0 { stack.append(pc + 1) }
            case .end: if position == length { stack.append(pc + 1) }
            case .consume: break
            }
        }
        return false
    }

    // MARK: the machine

    package enum Instruction: Sendable {
        case consume(Matcher)
        case split(Int, Int)
        case jump(Int)
        case start
        case end
        case match
    }

    package struct Matcher: Sendable {
        package var ranges: [ClosedRange<UInt32>]
        package var negated: Bool

        package static let any = Matcher(ranges: [0...0x10FFFF], negated: false)
        package static func scalar(_ value: Unicode.Scalar) -> Matcher { Matcher(ranges: [value.value...value.value], negated: false) }

        package func accepts(_ scalar: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(scalar.value) } != negated
        }
    }

    /// The threads at one position, each pc once, in the order added.
    private struct ThreadList {
        var pcs: [Int] = []
        /// Where each thread's match began (`firstMatch` only).
        var starts: [Int] = []
        var seen: [Bool]

        init(count: Int) { seen = Array(repeating: false, count: count) }

        mutating func insert(_ pc: Int) -> Bool {
            guard !seen[pc] else { return false }
            seen[pc] = true
            pcs.append(pc)
            return true
        }

        mutating func insert(_ pc: Int, start: Int) -> Bool {
            guard insert(pc) else { return false }
            starts.append(start)
            return true
        }

        mutating func clear() {
            for pc in pcs { seen[pc] = false }
            pcs.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
        }
    }

    // MARK: parsing

    fileprivate indirect enum Node: Sendable {
        case empty
        case one(Matcher)
        case start, end
        case concat([Node])
        case either([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        let pattern: String
        let caseInsensitive: Bool
        var index = 0

        init(scalars: [Unicode.Scalar], pattern: String, caseInsensitive: Bool) {
            self.scalars = scalars
            self.pattern = pattern
            self.caseInsensitive = caseInsensitive
        }

        func invalid(_ reason: String) -> Invalid { Invalid(pattern: pattern, reason: reason) }
        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func parseWhole() throws -> Node {
            let node = try parseAlternation(depth: 0)
            guard index == scalars.count else { throw invalid("unbalanced ')' at \(index + 1)") }
            return node
        }

        mutating func parseAlternation(depth: Int) throws -> Node {
            guard depth < 100 else { throw invalid("groups nested more than 100 deep") }
            var branches = [try parseConcat(depth: depth)]
            while peek == "|" {
                index += 1
                branches.append(try parseConcat(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .either(branches)
        }

        mutating func parseConcat(depth: Int) throws -> Node {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                items.append(try parseRepeat(depth: depth))
            }
            return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concat(items)
        }

        mutating func parseRepeat(depth: Int) throws -> Node {
            var node = try parseAtom(depth: depth)
            while let scalar = peek {
                let bounds: (Int, Int?)
                switch scalar {
                case "*": bounds = (0, nil); index += 1
                case "+": bounds = (1, nil); index += 1
                case "?": bounds = (0, 1); index += 1
                case "{":
                    guard let counted = try parseCount() else { return node }
                    bounds = counted
                default: return node
                }
                if peek == "?" || peek == "+" { index += 1 }   // lazy and possessive forms match the same texts
                node = .repeated(node, min: bounds.0, max: bounds.1)
            }
            return node
        }

        /// `{m}`, `{m,}` or `{m,n}`; nil (and nothing read) when `{` starts no count, as in `a{b`.
        mutating func parseCount() throws -> (Int, Int?)? {
            var cursor = index + 1
            func number() -> Int? {
                var digits = ""
                while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) { digits.unicodeScalars.append(scalars[cursor]); cursor += 1 }
                return digits.isEmpty ? nil : Int(digits.prefix(6))
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if cursor < scalars.count, scalars[cursor] == "," {
                cursor += 1
                high = number()
            }
            guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
            guard high.map({ $0 >= low }) ?? true else { throw invalid("{\(low),\(high!)} counts down") }
            guard low <= 1_000, (high ?? 0) <= 1_000 else { throw invalid("counts above 1000 are not supported") }
            index = cursor + 1
            return (low, high)
        }

        mutating func parseAtom(depth: Int) throws -> Node {
            guard let scalar = peek else { throw invalid("ends too early") }
            index += 1
            switch scalar {
            case "(":
                if peek == "?" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                        throw invalid("lookaround and inline flags other than a leading (?i) cannot be matched in linear time")
                    }
                    index += 2
                }
                let inner = try parseAlternation(depth: depth + 1)
                guard peek == ")" else { throw invalid("a group is not closed") }
                index += 1
                return inner
            case "[": return .one(try parseClass())
            case ".": return .one(.any)
            case "^": return .start
            case "$": return .end
            case "\\": return .one(try parseEscape(inClass: false))
            case "*", "+", "?": throw invalid("'\(scalar)' has nothing to repeat")
            default: return .one(literal(scalar))
            }
        }

        func literal(_ scalar: Unicode.Scalar) -> Matcher {
            guard caseInsensitive else { return .scalar(scalar) }
            let lower = String(scalar).lowercased().unicodeScalars
            return lower.count == 1 ? .scalar(lower.first!) : .scalar(scalar)
        }

        mutating func parseEscape(inClass: Bool) throws -> Matcher {
            guard let scalar = peek else { throw invalid("ends with '\\'") }
            index += 1
            let digit: ClosedRange<UInt32> = 48...57
            let word: [ClosedRange<UInt32>] = [48...57, 65...90, 95...95, 97...122]
            let space: [ClosedRange<UInt32>] = [9...13, 32...32, 0xA0...0xA0]
            switch scalar {
            case "d": return Matcher(ranges: [digit], negated: false)
            case "D": return Matcher(ranges: [digit], negated: true)
            case "w": return Matcher(ranges: word, negated: false)
            case "W": return Matcher(ranges: word, negated: true)
            case "s": return Matcher(ranges: space, negated: false)
            case "S": return Matcher(ranges: space, negated: true)
            case "t": return .scalar("\t")
            case "n": return .scalar("\n")
            case "r": return .scalar("\r")
            case "1"..."9": throw invalid("backreferences cannot be matched in linear time")
            case "b", "B", "A", "z", "Z", "G", "k", "p", "P", "x", "u", "Q", "E":
                throw invalid("'\\\(scalar)' is not supported")
            default:
                guard !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)) else { throw invalid("'\\\(scalar)' is not supported") }
                return literal(scalar)
            }
        }

        mutating func parseClass() throws -> Matcher {
            var negated = false
            if peek == "^" { negated = true; index += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while let scalar = peek, scalar != "]" || first {
                first = false
                index += 1
                var low: Unicode.Scalar = scalar
                if scalar == "\\" {
                    let escaped = try parseEscape(inClass: true)
                    guard !escaped.negated, escaped.ranges.count == 1, escaped.ranges[0].count == 1 else {
                        guard !escaped.negated else { throw invalid("negated classes like \\D inside [...] are not supported") }
                        ranges += escaped.ranges
                        continue
                    }
                    low = Unicode.Scalar(escaped.ranges[0].lowerBound)!
                }
                if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    var high = scalars[index]
                    index += 1
                    if high == "\\" {
                        let escaped = try parseEscape(inClass: true)
                        guard escaped.ranges.count == 1, escaped.ranges[0].count == 1, !escaped.negated else { throw invalid("a range ends in a class") }
                        high = Unicode.Scalar(escaped.ranges[0].lowerBound)!
                    }
                    guard low.value <= high.value else { throw invalid("range \(low)-\(high) is backwards") }
                    ranges.append(low.value...high.value)
                } else {
                    ranges.append(low.value...low.value)
                }
            }
            guard peek == "]" else { throw invalid("a '[' class is not closed") }
            index += 1
            if caseInsensitive {
                // Letters in either case: the text is lower-cased before matching.
                ranges += ranges.compactMap { range in
                    guard range.lowerBound >= 65, range.upperBound <= 90 else { return nil }
                    return (range.lowerBound + 32)...(range.upperBound + 32)
                }
            }
            return Matcher(ranges: ranges, negated: negated)
        }
    }

    // MARK: compiling

    private struct Compiler {
        let pattern: String
        var program: [Instruction] = []
        /// Ranges of classes beyond their first: with the instructions, what matching one character may cost.
        var steps = 0

        func checkSize() throws {
            guard program.count + steps <= LinearPattern.maxProgram else {
                throw Invalid(pattern: pattern, reason: "too large once its counts are spelled out (more than \(LinearPattern.maxProgram) steps, counting each range of a [...] class)")
            }
        }

        mutating func emit(_ node: Node) throws {
            try checkSize()
            switch node {
            case .empty: break
            case .one(let matcher):
                program.append(.consume(matcher))
                steps += matcher.ranges.count - 1
                try checkSize()
            case .start: program.append(.start)
            case .end: program.append(.end)
            case .concat(let items): for item in items { try emit(item) }
            case .either(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = program.count
                        program.append(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let inner, let min, let max):
                for _ in 0..<min { try emit(inner) }
                if let max {
                    // Each optional copy may be skipped, to the end of all of them.
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    program.append(.split(loop + 1, -1))
                    try emit(inner)
                    program.append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}

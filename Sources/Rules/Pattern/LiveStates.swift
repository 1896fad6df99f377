/// The reverse pre-pass of `LinearPattern.replacingMatches`: for each
/// position of a text, the set of instructions from which the rest of the
/// text can still reach a match. With it, the leftmost match is the first
/// position where the program's entry is live, and its end is found by
/// walking forward in priority order (first branch first) through live
/// instructions only, which never scans past the match. All matches of a
/// text thus cost time linear in the text for a fixed pattern.
///
/// This is the reverse-pass idea RE2 and Rust's regex use to find where a
/// match starts, done here as a lazily built DFA over live sets: each
/// distinct set is kept once, each position holds the number of its set,
/// and a step from one position's set and a character to the previous
/// position's set is remembered. A text with more distinct sets than
/// `maxSets` gives nil, and the caller falls back to one Pike VM run per match.
package struct LiveStates {
    package typealias Instruction = LinearPattern.Instruction

    /// Distinct live sets kept for one text: 4,096 sets of a 5,000-step program are at most 2.6 MB.
    package static let maxSets = 4_096
    /// Remembered steps (set, character) → set.
    package static let maxSteps = 65_536

    private let program: [Instruction]
    private let scalars: [Unicode.Scalar]
    /// The position where `$` matches, or -1 when the text was cut.
    private let length: Int
    private let words: Int
    private var sets: [[UInt64]] = []
    /// Each position's set, by number (`0...scalars.count`).
    private var ids: [Int32]

    private struct Step: Hashable {
        var next: Int32
        var scalar: UInt32
    }

    /// Builds the live sets, from the end of the text back to its start.
    package init?<Failure: Error>(_ program: [Instruction], _ scalars: [Unicode.Scalar], length: Int, check: () throws(Failure) -> Void) throws(Failure) {
        self.program = program
        self.scalars = scalars
        self.length = length
        words = (program.count + 63) / 64
        ids = Array(repeating: 0, count: scalars.count + 1)
        // Who reaches whom without reading a character, reversed; .start and .end only at their positions.
        var always = Array(repeating: [Int](), count: program.count)
        var atStart = Array(repeating: [Int](), count: program.count)
        var atEnd = Array(repeating: [Int](), count: program.count)
        var consumers: [(pc: Int, matcher: LinearPattern.Matcher)] = []
        var matchPC = -1
        for (pc, instruction) in program.enumerated() {
            switch instruction {
            case .jump(let target): always[target].append(pc)
            case .split(let first, let second): always[first].append(pc); always[second].append(pc)
            case .start: atStart[pc + 1].append(pc)
            case .end: atEnd[pc + 1].append(pc)
            case .consume(let matcher): consumers.append((pc, matcher))
            case .match: matchPC = pc
            }
        }
        var interned: [[UInt64]: Int32] = [:]
        var steps: [Step: Int32] = [:]
        var stack: [Int] = []
        var position = scalars.count
        while position >= 0 {
            if position & 255 == 0 { try check() }
            let isStart = position == 0, isEnd = position == length
            let next = position < scalars.count ? ids[position + 1] : -1
            let step = next >= 0 ? Step(next: next, scalar: scalars[position].value) : nil
            if !isStart, !isEnd, let step, let known = steps[step] {
                ids[position] = known
                position -= 1
                continue
            }
            // Seeds: the match, and each character test that passes here into a live instruction.
            var set = [UInt64](repeating: 0, count: words)
            func insert(_ pc: Int) {
                guard set[pc >> 6] & (1 << UInt64(pc & 63)) == 0 else { return }
                set[pc >> 6] |= 1 << UInt64(pc & 63)
                stack.append(pc)
            }
            insert(matchPC)
            if next >= 0 {
                let scalar = scalars[position]
                let after = sets[Int(next)]
                for (pc, matcher) in consumers where after[(pc + 1) >> 6] & (1 << UInt64((pc + 1) & 63)) != 0 && matcher.accepts(scalar) {
                    insert(pc)
                }
            }
            // Then everything that reaches a live instruction without reading.
            while let pc = stack.popLast() {
                for from in always[pc] { insert(from) }
                if isStart { for from in atStart[pc] { insert(from) } }
                if isEnd { for from in atEnd[pc] { insert(from) } }
            }
            let id: Int32
            if let known = interned[set] {
                id = known
            } else {
                guard sets.count < Self.maxSets else { return nil }
                id = Int32(sets.count)
                interned[set] = id
                sets.append(set)
            }
            ids[position] = id
            if !isStart, !isEnd, let step, steps.count < Self.maxSteps { steps[step] = id }
            position -= 1
        }
    }

    private func isLive(_ pc: Int, at position: Int) -> Bool {
        sets[Int(ids[position])][pc >> 6] & (1 << UInt64(pc & 63)) != 0
    }

    /// The non-empty matches, leftmost first, each the one a backtracking engine takes.
    package func matches<Failure: Error>(check: () throws(Failure) -> Void) throws(Failure) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var position = 0
        while position <= scalars.count {
            if position & 255 == 0 { try check() }
            guard isLive(0, at: position) else {
                position += 1
                continue
            }
            let end = self.end(from: position)
            if end > position {
                found.append(position..<end)
                position = end
            } else {
                position += 1
            }
        }
        return found
    }

    /// Where the match starting at `start` ends: a depth-first walk in
    /// priority order, through live instructions only, each (instruction,
    /// position) once, as the Pike VM keeps each instruction once a position.
    private func end(from start: Int) -> Int {
        var stack = [(pc: 0, position: start)]
        var visited = Set<Int>()
        let width = program.count
        while let (pc, position) = stack.popLast() {
            guard visited.insert(position * width + pc).inserted else { continue }
            switch program[pc] {
            case .match: return position
            case .jump(let target):
                if isLive(target, at: position) { stack.append((target, position)) }
            case .split(let first, let second):
                if isLive(second, at: position) { stack.append((second, position)) }
                if isLive(first, at: position) { stack.append((first, position)) }
            case .start:
                if position == 0, isLive(pc + 1, at: position) { stack.append((pc + 1, position)) }
            case .end:
                if position == length, isLive(pc + 1, at: position) { stack.append((pc + 1, position)) }
            case .consume(let matcher):
                if position < scalars.count, matcher.accepts(scalars[position]), isLive(pc + 1, at: position + 1) {
                    stack.append((pc + 1, position + 1))
                }
            }
        }
        return start   // not reached: the entry was live, so some walk ends in a match
    }
}

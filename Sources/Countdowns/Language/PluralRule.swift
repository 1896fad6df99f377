import Foundation

/// One CLDR plural rule (`v = 0 and i % 10 = 2..4 and i % 100 != 12..14`),
/// parsed once and evaluated for whole numbers, which is all a countdown counts:
/// for an integer n, the operands are i = n and v = w = f = t = e = c = 0.
///
/// The rules themselves are data, copied from CLDR's plurals.xml into each
/// language's table (Tables/*.json); `LanguageTests` checks them against
/// PyPI's babel for 0 to 200. Foundation on Linux does not expose ICU's
/// plural rules, hence this small reader.
struct PluralRule: Sendable, Hashable {
    struct Invalid: Error, CustomStringConvertible {
        var rule: String
        var description: String { "'\(rule)' is not a CLDR plural rule this reader understands" }
    }

    /// One `operand [% modulus] (=|!=) ranges` test.
    struct Relation: Sendable, Hashable {
        var operand: Character
        var modulus: Int?
        var negated: Bool
        var ranges: [ClosedRange<Int>]

        func holds(for n: Int) -> Bool {
            let base: Int = "ni".contains(operand) ? n : 0   // v, w, f, t, e, c are 0 for whole numbers
            let value = modulus.map { base % $0 } ?? base
            return ranges.contains { $0.contains(value) } != negated
        }
    }

    /// Relations joined by `and`, those groups joined by `or`.
    let alternatives: [[Relation]]

    init(_ text: String) throws(Invalid) {
        // Samples ("@integer 1, 21, 31") follow the condition.
        let condition = text.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        var alternatives: [[Relation]] = []
        for alternative in condition.components(separatedBy: " or ") {
            var relations: [Relation] = []
            for relation in alternative.components(separatedBy: " and ") {
                let isNegated = relation.contains("!=")
                let sides = relation.components(separatedBy: isNegated ? "!=" : "=")
                guard sides.count == 2 else { throw Invalid(rule: text) }
                let expression = sides[0].split(separator: "%").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let operand = expression.first?.first, expression[0].count == 1, "niwvftec".contains(operand) else { throw Invalid(rule: text) }
                var modulus: Int?
                if expression.count == 2 {
                    guard let parsed = Int(expression[1]), parsed > 0 else { throw Invalid(rule: text) }
                    modulus = parsed
                }
                var ranges: [ClosedRange<Int>] = []
                for item in sides[1].split(separator: ",") {
                    let bounds = item.trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
                    guard let low = Int(bounds[0]), let high = Int(bounds.last!), low <= high, bounds.count <= 2 else { throw Invalid(rule: text) }
                    ranges.append(low...high)
                }
                guard !ranges.isEmpty else { throw Invalid(rule: text) }
                relations.append(Relation(operand: operand, modulus: modulus, negated: isNegated, ranges: ranges))
            }
            alternatives.append(relations)
        }
        self.alternatives = alternatives
    }

    func holds(for n: Int) -> Bool {
        alternatives.contains { $0.allSatisfy { $0.holds(for: n) } }
    }
}

import Foundation
import Rules
import Testing
import TestSupport
@testable import Countdowns

/// Feed rules match patterns in time linear in the text (issue #26).
struct LinearPatternTests {
    @Test(arguments: [
        ("exam", "Maths exam", true), ("^exam", "Maths exam", false), ("exam$", "Maths exam", true), ("^Maths exam$", "Maths exam", true),
        ("(?i)EXAM", "Maths exam", true), ("EXAM", "Maths exam", false), ("(?i)[A-Z]+ final", "maths FINAL", true),
        ("colou?r", "Colour day", false), ("colou?r", "colour day", true), ("colou?r", "color", true), ("ab+c", "ac", false), ("ab+c", "abbbc", true), ("ab*c", "ac", true),
        ("a{3}", "aa", false), ("a{3}", "xaaay", true), ("^a{2,3}$", "aaaa", false), ("^a{2,}$", "aaaaaa", true), ("^a{2,3}$", "aaa", true),
        ("^(cat|dog)s?$", "dogs", true), ("^(cat|dog)s?$", "cow", false), ("^(?:ab)+$", "ababab", true), ("^(?:ab)+$", "ababa", false),
        ("[0-9]{4}-[0-9]{2}", "Due 2027-06", true), ("\\d\\d:\\d\\d", "at 09:30", true), ("\\bword", "", false),
        ("[^a-z]", "abc", false), ("[^a-z]", "abC", true), ("a.c", "abc", true), ("a\\.c", "abc", false), ("a\\.c", "a.c", true),
        ("\\s", "nospace", false), ("\\S+ \\S+", "two words", true), ("^$", "", true), ("", "anything", true),
        ("Geburtstag|birthday", "Annas Geburtstag", true), ("[-+]1", "-1", true), ("x{", "x{", true), ("🎄", "🎄 Christmas", true),
    ])
    func matchesLikeARegularExpression(pattern: String, text: String, expected: Bool) throws {
        if pattern.contains("\\b") {
            #expect(throws: LinearPattern.Invalid.self) { try LinearPattern(pattern) }
            return
        }
        #expect(try LinearPattern(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test(arguments: ["(a", "a)", "[abc", "*a", "a{3,1}", "(a)\\1", "(?=a)", "(?<=a)b", "a{1000}{1000}", "\\", "[z-a]"])
    func refusesWhatItCannotMatchInLinearTime(pattern: String) {
        #expect(throws: LinearPattern.Invalid.self) { try LinearPattern(pattern) }
    }

    /// The ReDoS patterns that take a backtracking engine exponential time on
    /// a long title with no match: here each runs in linear time. The bound is
    /// loose (a shared machine), but a backtracking engine would not finish.
    @Test(arguments: ["(a+)+$", "(a|a)*$", "(a|aa)+b", "^(a*)*$x", "(.*a){20}"])
    func aKnownReDoSPatternStaysLinear(pattern: String) throws {
        let title = String(repeating: "a", count: 5_000) + "!"
        let compiled = try LinearPattern(pattern)
        let started = ContinuousClock.now
        _ = compiled.matches(title)
        #expect(ContinuousClock.now - started < .seconds(5), "\(pattern) took \(ContinuousClock.now - started)")
    }

    /// `replace:` in a rule: leftmost matches, each the one a backtracking
    /// engine picks (greedy, first branch first), replaced literally.
    @Test(arguments: [
        ("a+", "caaandy aa", "_", "c_ndy _"),
        ("(?i)mr\\.? ", "MR. Smith and mr Jones", "Mr ", "Mr Smith and Mr Jones"),
        ("cat|category", "category", "X", "Xegory"),
        ("x*", "abc", "-", "abc"),
        ("^School: ", "School: School: Exam", "", "School: Exam"),
        ("\\s+$", "Exam   ", "", "Exam"),
        ("(?i)birthday", "Anna's BIRTHDAY 🎂 birthday", "Bday", "Anna's Bday 🎂 Bday"),
        ("b.d", "büd bad", "·", "· ·"),
    ])
    func replacingIsLeftmostAndGreedy(pattern: String, text: String, with: String, expected: String) throws {
        #expect(try LinearPattern(pattern).replacingMatches(in: text, with: with) == expected)
    }

    @Test func replacingWithAReDoSPatternStaysLinear() throws {
        let title = String(repeating: "a", count: 5_000) + "!"
        let started = ContinuousClock.now
        let replaced = try LinearPattern("(a+)+!").replacingMatches(in: title, with: "x")
        #expect(replaced == "x")
        #expect(ContinuousClock.now - started < .seconds(5), "took \(ContinuousClock.now - started)")
    }

    /// The second audit: `replace` was quadratic, as each match's search ran
    /// to the end of the text (`a(.*z)?` on 40,000 characters: 115 s).
    @Test func replacingEveryMatchOfALongDescriptionIsLinear() throws {
        let pattern = try LinearPattern("a(.*z)?")
        for count in [10_000, 40_000] {
            let text = String(repeating: "ab", count: count / 2)
            let started = ContinuousClock.now
            let replaced = pattern.replacingMatches(in: text, with: "x")
            #expect(replaced == String(repeating: "xb", count: count / 2))
            #expect(ContinuousClock.now - started < .seconds(5), "\(count) characters took \(ContinuousClock.now - started)")
        }
        #expect(try LinearPattern("a(.*z)?").replacingMatches(in: "a-a-z-a", with: "x") == "x-x", "the greedy branch still wins")
    }

    /// The reverse pre-pass gives the same matches as one Pike VM run per
    /// match (the reference) on random patterns and texts.
    @Test func theLinearReplaceAgreesWithThePikeVM() throws {
        var generator = SplitMix(seed: 26)
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "(a|b)", "(ab|a)", "(a*)", "(b+)", "(a|)", "^", "$", "(?:ba)?", "a{2}", "b{1,3}"]
        let suffixes = ["", "", "*", "+", "?", "{0,2}"]
        var checked = 0
        for _ in 0..<600 {
            let pattern = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                atoms.randomElement(using: &generator)! + suffixes.randomElement(using: &generator)!
            }.joined()
            guard let compiled = try? LinearPattern(pattern) else { continue }
            for _ in 0..<5 {
                let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in "abc".randomElement(using: &generator)! })
                let scalars = Array(text.unicodeScalars)
                let reference = compiled.pikeMatches(scalars, length: scalars.count) { () throws(Never) in }
                let live = try #require(LiveStates(compiled.program, scalars, length: scalars.count) { () throws(Never) in })
                #expect(live.matches { () throws(Never) in } == reference, "\(pattern) on \(text)")
                checked += 1
            }
        }
        #expect(checked > 1_000)
    }

    /// The second audit: a class's ranges did not count toward the program's
    /// size, so a 15 KB class repeated a thousand times compiled.
    @Test func aHugeClassRepeatedIsRefused() {
        let ranges = "[" + (0..<3_000).map { String(UnicodeScalar(0x4E00 + 2 * $0)!) }.joined() + "]"
        #expect((try? LinearPattern(ranges + "{1000}")) == nil)
        #expect((try? LinearPattern(ranges + ranges)) == nil)
        #expect((try? LinearPattern(ranges)) != nil, "one such class is fine")
    }

    /// Only the first 64 KiB of a field are read: the rest is kept as it is.
    @Test func aPatternReadsTheFirst64KiBOfAField() throws {
        let head = String(repeating: "é", count: LinearPattern.maxTextBytes / 2)   // two bytes each: exactly 64 KiB
        let text = head + "needle"
        #expect(try LinearPattern("needle").matches(text) == false)
        #expect(try LinearPattern("é$").matches(text) == false, "$ is not the end of a cut text")
        #expect(try LinearPattern("needle").replacingMatches(in: text, with: "x") == text)
        #expect(try LinearPattern("é+").replacingMatches(in: text, with: "x") == "xneedle")
        #expect(try LinearPattern("needle$").matches("short needle"))
    }
}

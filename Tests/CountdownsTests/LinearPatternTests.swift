import Foundation
import Testing
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
}

import Testing
@testable import ICalendar

struct TextEscapingTests {
    @Test func escapesTheFourSpecials() {
        #expect(TextEscaping.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(TextEscaping.escape("line1\r\nline2") == "line1\\nline2")
    }

    @Test func unescapeInvertsEscape() {
        for text in ["plain", "a,b;c\\d\ne", "ünïcödé, 🎄; done\\", "trailing\\"] {
            #expect(TextEscaping.unescape(TextEscaping.escape(text)) == text)
        }
        #expect(TextEscaping.unescape("A\\NB") == "A\nB")
    }

    @Test func stripsControlCharactersButKeepsTab() {
        #expect(TextEscaping.escape("bell\u{07}nul\u{00}del\u{7F}\ttab") == "bellnuldel\ttab")
        #expect(TextEscaping.stripControls("x\u{1B}[31my") == "x[31my")
    }

    @Test func splitsListsOnlyAtUnescapedCommas() {
        #expect(TextEscaping.splitList("a,b\\,c,d") == ["a", "b\\,c", "d"])
        #expect(Property(name: "CATEGORIES", value: "Work,Fun\\, games").textList == ["Work", "Fun, games"])
    }

    @Test func writerStripsControlsFromValuesAndQuotesParameters() {
        let property = Property(name: "X-NOTE", parameters: [Parameter("X-LABEL", "a:b;c")], value: "ok\u{01}ay")
        #expect(ContentLineWriter.line(property) == "X-NOTE;X-LABEL=\"a:b;c\":okay")
    }
}

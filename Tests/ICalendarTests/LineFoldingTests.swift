import Testing
@testable import ICalendar

struct LineFoldingTests {
    static func fold(_ line: String) -> [UInt8] {
        var out: [UInt8] = []
        LineFolder.fold(line, into: &out)
        return out
    }

    static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 13, index + 1 < bytes.count, bytes[index + 1] == 10 {
                lines.append(current); current = []; index += 2
            } else {
                current.append(bytes[index]); index += 1
            }
        }
        #expect(current.isEmpty, "output must end with CRLF")
        return lines
    }

    @Test(arguments: [
        "SUMMARY:" + String(repeating: "é", count: 120),
        "SUMMARY:" + String(repeating: "🎄", count: 60),
        "DESCRIPTION:" + String(repeating: "日本語のテキスト", count: 20),
        "SUMMARY:" + String(repeating: "a", count: 74) + "🎂" + String(repeating: "b", count: 10),
        "SUMMARY:short",
    ])
    func foldsAt75OctetsWithoutSplittingUTF8(_ line: String) throws {
        let lines = Self.physicalLines(Self.fold(line))
        for (index, physical) in lines.enumerated() {
            #expect(physical.count <= 75, "line \(index) has \(physical.count) octets")
            if index > 0 { #expect(physical.first == 32) }
            // Every physical line is valid UTF-8 on its own: nothing was split.
            #expect(String(validating: physical, as: UTF8.self) != nil, "line \(index) splits a character")
        }
        let unfolded = lines.enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
        #expect(String(decoding: unfolded, as: UTF8.self) == line)
    }

    @Test func readerUnfoldsAndCountsPhysicalLines() {
        let text = "BEGIN:VCALENDAR\r\nSUMMARY:one\r\n  two\r\n\tthree\nX-A:1\rX-B:2\r\nEND:VCALENDAR"
        let lines = Array(ContentLineReader(text))
        // Unfolding removes exactly one leading space or tab per continuation.
        #expect(lines.map { String($0.text) } == ["BEGIN:VCALENDAR", "SUMMARY:one twothree", "X-A:1", "X-B:2", "END:VCALENDAR"])
        #expect(lines.map(\.line) == [1, 2, 5, 6, 7])
    }
}

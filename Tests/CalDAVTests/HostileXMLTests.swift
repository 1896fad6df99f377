import CalDAV
import Foundation
import StrictXML
import Testing

/// Bodies from the third audit (issue #59): each killed the server inside
/// FoundationXML, or made an answer thousands of times its size. Each is now
/// refused by name before or while libxml2's reader reads it.
struct HostileXMLTests {
    static func refusal(_ data: Data) -> String? {
        do { _ = try XMLTree.parse(data); return nil } catch { return error.description }
    }

    /// Regression (issue #59, 1): an unclosed declaration hid `<?x?>` from the check that skipped to the first `?>`,
    /// and FoundationXML handed strlen a NULL: SIGSEGV from one PROPFIND.
    @Test func anUnclosedDeclarationBeforeAProcessingInstructionIsRefused() {
        let body = Data(#"<?xml version="1.0" <d:propfind xmlns:d="DAV:"><?x?><d:prop/></d:propfind>"#.utf8)
        #expect(Self.refusal(body) == "the XML body's declaration (<?xml … ?>) is not closed")
        for method in [PropfindBody.parse(_:), { data in _ = try ReportBody.parse(data); return .allProperties }] as [(Data) throws -> PropfindBody] {
            #expect(throws: XMLTree.Refused.self) { try method(body) }
        }
        #expect(throws: XMLTree.Refused.self) { try PropertyUpdate.parse(body, root: .d("propertyupdate")) }
        #expect(throws: XMLTree.Refused.self) { try PropertyUpdate.parse(body, root: .c("mkcalendar")) }
        let after = Data(#"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><?x?><d:prop/></d:propfind>"#.utf8)
        #expect(Self.refusal(after) == "the XML body has a processing instruction, which is not accepted")
        let twice = Data(#"<?xml version="1.0"?><?xml version="1.0"?><d:propfind xmlns:d="DAV:"/>"#.utf8)
        #expect(Self.refusal(twice) == "the XML body has a processing instruction, which is not accepted")
    }

    /// Regression (issue #59, 1): UTF-16 without a byte-order mark, and with one, reached FoundationXML's decoder.
    @Test func utf16BodiesAreRefused() {
        let text = #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#
        let little = Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let big = Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(Self.refusal(little) == "the XML body has a NUL byte")
        #expect(Self.refusal(big) == "the XML body has a NUL byte")
        #expect(Self.refusal(Data([0xFF, 0xFE]) + little)?.contains("NUL") == true)
        #expect(Self.refusal(Data(#"<d:propfind xmlns:d="DAV:">"#.utf8) + Data([0]) + Data("</d:propfind>".utf8)) == "the XML body has a NUL byte")
    }

    /// Regression (issue #59, 1): a declared encoding other than UTF-8 (UTF-7 crashed) is refused, not decoded.
    @Test func aDeclaredEncodingOtherThanUTF8IsRefused() {
        for encoding in ["UTF-7", "UTF-16", "ISO-8859-1", "EBCDIC-US", ""] {
            let body = Data(#"<?xml version="1.0" encoding="\#(encoding)"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#.utf8)
            #expect(Self.refusal(body)?.contains("declares the encoding") == true, "\(encoding): \(Self.refusal(body) ?? "read")")
        }
        for accepted in [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<?xml version='1.0' encoding='utf-8' ?>"#, #"<?xml version="1.0"?>"#, ""] {
            let body = Data((accepted + #"<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#).utf8)
            #expect(Self.refusal(body) == nil, "\(accepted): \(Self.refusal(body) ?? "")")
        }
        #expect(Self.refusal(Data([0xEF, 0xBB, 0xBF]) + Data("\n  <d:propfind xmlns:d=\"DAV:\"/>".utf8)) == nil, "a UTF-8 byte-order mark and leading space")
    }

    /// Regression (issue #59, 2): 2,000 unknown properties in a 100 KB namespace answered 200 MB.
    @Test func aLongNamespaceAndTooManyPropertiesAreRefused() throws {
        let namespace = String(repeating: "n", count: 100 * 1024)
        let long = Data(#"<d:propfind xmlns:d="DAV:" xmlns:x="\#(namespace)"><d:prop><x:a/></d:prop></d:propfind>"#.utf8)
        #expect(Self.refusal(long) == "the XML body has a namespace longer than 1024 bytes")
        let many = (0..<2000).map { "<x:p\($0)/>" }.joined()
        let body = Data(#"<d:propfind xmlns:d="DAV:" xmlns:x="urn:x"><d:prop>\#(many)</d:prop></d:propfind>"#.utf8)
        #expect(throws: XMLTree.Refused("a request asks for at most 100 properties; this one asks for 2000")) { try PropfindBody.parse(body) }
        let repeated = String(repeating: "<d:getetag/>", count: 2000)
        #expect(try PropfindBody.parse(Data(#"<d:propfind xmlns:d="DAV:"><d:prop>\#(repeated)<d:displayname/></d:prop></d:propfind>"#.utf8))
                == .properties([.d("getetag"), .d("displayname")]), "each property once")
    }

    /// Regression (issue #59, 5): one href 4,000 times answered 168 MB.
    @Test func aMultigetNamesEachObjectOnceAndAtMostAThousand() throws {
        let once = String(repeating: "<d:href>/dav/calendars/anna/f/a.ics</d:href>", count: 4000)
        let body = Data(#"<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>\#(once)</c:calendar-multiget>"#.utf8)
        #expect(try ReportBody.parse(body) == .multiget(properties: [.d("getetag")], hrefs: ["/dav/calendars/anna/f/a.ics"]))
        let many = (0..<1001).map { "<d:href>/dav/calendars/anna/f/\($0).ics</d:href>" }.joined()
        let tooMany = Data(#"<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\#(many)</c:calendar-multiget>"#.utf8)
        #expect(throws: XMLTree.Refused.self) { try ReportBody.parse(tooMany) }
    }

    /// What the reader reports: names by namespace, the default namespace, CDATA as text, attributes without
    /// namespace declarations, entities and character references replaced.
    @Test func theReaderReportsElementsTextAndAttributes() throws {
        var events: [XMLEvent] = []
        let body = Data(#"<a xmlns="urn:a" xmlns:b="urn:b" b:k="v &amp; w" plain="1"><b:c>x&#65;<![CDATA[<y>]]></b:c><!-- note --><d/></a>"#.utf8)
        try StrictXMLReader().read(body) { event in events.append(event) }
        #expect(events == [
            .start(XMLStartTag(namespace: "urn:a", local: "a", qualifiedName: "a", attributes: [
                XMLAttribute(qualifiedName: "b:k", local: "k", namespace: "urn:b", value: "v & w"),
                XMLAttribute(qualifiedName: "plain", local: "plain", value: "1")], line: 1)),
            .start(XMLStartTag(namespace: "urn:b", local: "c", qualifiedName: "b:c", line: 1)), .text("xA<y>"), .end,
            .start(XMLStartTag(namespace: "urn:a", local: "d", qualifiedName: "d", line: 1)), .end,
            .end,
        ])
        #expect(Self.refusal(Data(#"<a xmlns="urn:a">&nbsp;</a>"#.utf8))?.contains("not well-formed") == true, "an undeclared entity")
        #expect(Self.refusal(Data("<a/><b/>".utf8))?.contains("not well-formed") == true, "two roots")
        #expect(Self.refusal(Data("<p:a/>".utf8))?.contains("not well-formed") == true, "an unbound prefix")
        #expect(Self.refusal(Data()) == "the XML body is empty")
    }
}

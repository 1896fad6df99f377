import Foundation
import Testing
@testable import CountdownStore

/// Uploaded SVGs are checked against allow-lists (issue #27, 9): each refused
/// case below got through the deny-list that came before.
struct SVGCheckTests {
    static func refusal(_ svg: String) -> String? {
        do { try SVGCheck.validate(Data(svg.utf8)); return nil } catch { return error.description }
    }

    static let open = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">"#

    @Test(arguments: [
        (##"<set attributeName="href" to="javascript:alert(1)"/>"##, "<set>"),
        (##"<a href="#x"><animate attributeName="href" values="javascript:alert(1)"/><rect width="1" height="1"/></a>"##, "<a>"),
        (##"<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/>"##, "refers outside the file"),
        (##"<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/>"##, "refers outside the file"),
        (##"<style>@\69mport url(https://evil.example/x.css);</style>"##, "a CSS escape"),
        (##"<style>rect { fill: red } @import 'https://evil.example/x.css';</style>"##, "@import"),
        (##"<rect width="1" height="1" style="background: image-set('https://evil.example/a.png' 1x)"/>"##, "image-set()"),
        (##"<rect width="1" height="1" style="fill: u\72l(https://evil.example/a)"/>"##, "a CSS escape"),
        (##"<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>"##, "<foreignObject>"),
        (##"<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>"##, "<html:script>"),
        (##"<rect width="1" height="1" formaction="javascript:alert(1)"/>"##, "formaction"),
        (##"<rect width="1" height="1" onmouseover="alert(1)"/>"##, "event attribute"),
        (##"<rect width="1" height="1" fill="url(https://evil.example/p.svg#g)"/>"##, "an external url()"),
    ])
    func whatTheDenyListMissedIsRefused(_ body: String, _ named: String) {
        let refusal = Self.refusal(Self.open + body + "</svg>")
        #expect(refusal?.contains(named) == true, "\(body): \(refusal ?? "accepted")")
    }

    /// What editors write stays accepted: Inkscape's metadata and namespaced
    /// attributes, gradients, filters, text, `use` of a fragment, an inline PNG.
    @Test func anEditorsDrawingIsAccepted() {
        let svg = """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                 xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
                 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:cc="http://creativecommons.org/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
                 width="64" height="64" viewBox="0 0 64 64" version="1.1" id="svg1" inkscape:version="1.2" sodipodi:docname="cake.svg">
              <sodipodi:namedview id="view1" pagecolor="#ffffff" inkscape:zoom="4"/>
              <metadata><rdf:RDF><cc:Work rdf:about=""><dc:title>Cake</dc:title></cc:Work></rdf:RDF></metadata>
              <defs>
                <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f06"/><stop offset="1" stop-color="#fc0"/></linearGradient>
                <filter id="blur"><feGaussianBlur in="SourceGraphic" stdDeviation="1"/></filter>
                <style>.candle { fill: url(#g); stroke: #333; }</style>
              </defs>
              <g inkscape:label="Layer 1" inkscape:groupmode="layer" transform="translate(2 2)">
                <rect class="candle" x="10" y="20" width="40" height="30" rx="4" filter="url(#blur)"/>
                <path d="M30 5 q 5 8 0 12 q -5 -4 0 -12z" fill="orange" aria-label="flame"/>
                <text x="32" y="60" text-anchor="middle" font-family="sans-serif" font-size="8">30</text>
                <use xlink:href="#g"/>
                <image width="4" height="4" href="data:image/png;base64,iVBORw0KGgo="/>
              </g>
            </svg>
            """
        #expect(Self.refusal(svg) == nil, "\(Self.refusal(svg) ?? "")")
    }

    /// Regression (the CalDAV fuzz harness's finding, issue #38): a byte that is not UTF-8 in an element's name
    /// trapped inside FoundationXML; an uploaded SVG reached the same parser.
    @Test func anSVGThatIsNotUTF8IsRefusedBeforeTheParser() {
        let bytes = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><re"#.utf8) + Data([0xF2]) + Data(#"ct width="1" height="1"/></svg>"#.utf8)
        #expect(throws: SVGCheck.Refusal.self) { try SVGCheck.validate(bytes) }
    }

    @Test func aRootOutsideTheSVGNamespaceIsRefused() {
        #expect(Self.refusal(#"<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>"#) != nil)
        #expect(Self.refusal("<html><!-- <svg --><body><script>alert(1)</script></body></html>") != nil)
    }
}

import Countdowns
import Pages
import StrictXML

/// One countdown as a standalone SVG image (embeddable in a README or a
/// dashboard): a gradient circle with the number and unit, the title and date below.
package enum SVGCard {
    package static func render(_ face: CardFace) -> String {
        let big = MarkupEscape.text(face.big)
        let size = switch face.length { case .short: 72; case .medium: 44; case .long: 28 }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="320" height="330" viewBox="0 0 320 330" role="img" aria-label="\(MarkupEscape.text(face.title)): \(big) \(MarkupEscape.text(face.unit))">
            <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="\(face.gradient.0)"/><stop offset="1" stop-color="\(face.gradient.1)"/></linearGradient></defs>
            <rect width="320" height="330" rx="28" fill="#FFFFFF"/>
            <circle cx="160" cy="130" r="105" fill="url(#g)"/>
            <text x="160" y="\(face.unit.isEmpty ? 142 : 135)" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="\(size)" font-weight="700" fill="\(face.textColor)">\(big)</text>
            <text x="160" y="175" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="24" font-weight="500" fill="\(face.textColor)">\(MarkupEscape.text(face.unit))</text>
            <text x="160" y="275" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="22" font-weight="600" fill="#1C1C1E">\(MarkupEscape.text(String(face.title.prefix(40))))</text>
            <text x="160" y="305" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="16" font-weight="300" fill="#6E6E73">\(MarkupEscape.text(face.dateLine))</text>\(progressBar(face))
            </svg>

            """
    }

    /// A ring around the circle, filled as far as the span has passed.
    package static func progressBar(_ face: CardFace) -> String {
        guard let percent = face.percent else { return "" }
        let circumference = 2 * Double.pi * 113
        let filled = (circumference * Double(percent) / 100 * 10).rounded() / 10
        return """

            <circle cx="160" cy="130" r="113" fill="none" stroke="#E5E5EA" stroke-width="6"/>\
            <circle cx="160" cy="130" r="113" fill="none" stroke="url(#g)" stroke-width="6" stroke-linecap="round" \
            stroke-dasharray="\(filled) \((circumference * 10).rounded() / 10)" transform="rotate(-90 160 130)"><title>\(MarkupEscape.text(face.progressText))</title></circle>
            """
    }
}

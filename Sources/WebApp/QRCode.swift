import CQREncode
import Foundation
import Pages
import StrictXML

/// A QR code for a subscribe link, drawn by libqrencode (Debian's
/// libqrencode-dev) and written as a small SVG on the server: phones scan it
/// from the web app to subscribe without typing the URL.
package enum QRCode {
    /// The symbol as an SVG document (a 4-module quiet zone around it), or nil
    /// when libqrencode refuses the text (longer than a QR code holds).
    package static func svg(for text: String, label: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 2_000 else { return nil }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        let quiet = 4, size = width + 2 * quiet
        var path = ""
        for y in 0..<width {
            var x = 0
            while x < width {
                // Bit 0 of each byte is "dark"; runs of dark modules become one rectangle.
                guard data[y * width + x] & 1 == 1 else { x += 1; continue }
                var run = 1
                while x + run < width, data[y * width + x + run] & 1 == 1 { run += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let title = MarkupEscape.text(label)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" width="200" height="200" role="img" aria-label="\(title)" shape-rendering="crispEdges"><title>\(title)</title><rect width="\(size)" height="\(size)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}

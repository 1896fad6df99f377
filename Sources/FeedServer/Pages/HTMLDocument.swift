/// The document around every page: charset, viewport, title and the stylesheet.
enum HTMLDocument {
    static func render(title: String, head: String = "", body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscape.text(title))</title>
        <link rel="stylesheet" href="/assets/tminus.css">
        \(head)</head>
        <body>
        \(body)</body>
        </html>

        """
    }
}

import Countdowns
import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The web app's Mustache templates (resources in `WebApp/Templates`), read
/// once at start. Every page extends `layout`; values are HTML-escaped by
/// Mustache unless a template asks otherwise (only the server-made QR SVG does).
struct WebPages: Sendable {
    let library: MustacheLibrary

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads every `.mustache` file of the FeedServer resource bundle. A missing
    /// bundle (the binary copied without `tminus_FeedServer.resources`) is an error
    /// at start, never a crash at the first page.
    static func load() throws -> WebPages {
        guard let folder = resourceFolder("Templates") else {
            throw Missing(description: "the web app's templates were not found: install them in /usr/share/tminus/tminus_FeedServer.resources, or keep tminus_FeedServer.resources next to the tminus binary")
        }
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mustache") }.sorted()
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            try library.register(text, named: String(file.dropLast(".mustache".count)))
        }
        return WebPages(library: library)
    }

    /// A folder of FeedServer's resources (`ResourceFolder`: the install prefix's
    /// share folder, beside the binary, or the build folder).
    static func resourceFolder(_ name: String) -> String? {
        ResourceFolder.find(name, in: "tminus_FeedServer.resources")
    }

    func render(_ template: String, _ page: PageContext, status: HTTPResponse.Status = .ok) -> HTMLPage {
        HTMLPage(html: library.render(page, withTemplate: template) ?? "template \(template) is missing", status: status)
    }
}

/// What every page's layout reads, around the page's own view (`page`).
struct PageContext: TemplateView {
    var title: String
    var csrf: String
    var signedIn: Bool
    var flash: String?
    var undo: String?
    /// Which navigation entry is current: "feeds", "timeline", "tasks" or "stats".
    var section: String
    var page: Any

    var templateValues: [String: Any] {
        ["navFeeds": section == "feeds", "navTimeline": section == "timeline", "navTasks": section == "tasks", "navStats": section == "stats"]
    }
}

/// An HTML page of the web app: never cached (it shows private data), framed by
/// nobody, scripts only from this origin and forms only to it.
struct HTMLPage: ResponseGenerator {
    var html: String
    var status: HTTPResponse.Status = .ok

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = PageHeaders.app
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

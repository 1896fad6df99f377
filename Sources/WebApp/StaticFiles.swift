import Catalog
import Foundation
import Hummingbird
import Pages

/// `/app/static/app.css` and `/app/static/app.js`, read from the resource
/// bundle once and served with validators, like the public pages' assets.
package enum StaticFiles {
    package static let files: [String: Representation] = {
        guard let folder = WebPages.resourceFolder("Static") else { return [:] }
        var files: [String: Representation] = [:]
        for (name, type) in [("app.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8")] {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
            files[name] = Representation(bytes: [UInt8](data), contentType: type, lastModified: Date(timeIntervalSince1970: 1_790_000_000),
                                         cacheControl: "public, max-age=300", extraHeaders: PageHeaders.asset)
        }
        return files
    }()

    package static func register(on group: RouterGroup<WebAppContext>) {
        group.get("static/{file}") { _, context in
            guard let file = files[context.parameters.get("file") ?? ""] else { throw HTTPError(.notFound, message: "no such file") }
            return file
        }
    }
}

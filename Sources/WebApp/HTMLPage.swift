import Catalog
import Hummingbird
import Pages

/// An HTML page of the web app: never cached (it shows private data), framed by
/// nobody, scripts only from this origin and forms only to it.
package struct HTMLPage: ResponseGenerator {
    package var html: String
    package var status: HTTPResponse.Status = .ok

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = PageHeaders.app
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension WebPages {
    package func render(_ template: String, _ page: PageContext, in pages: Localized, status: HTTPResponse.Status = .ok) -> HTMLPage {
        HTMLPage(html: pages.library.render(page, withTemplate: template) ?? "template \(template) is missing", status: status)
    }

    /// The words of a request's language (`AppLanguageMiddleware`).
    package func words(_ context: WebAppContext) -> WebWords {
        localized(context.language).words
    }
}

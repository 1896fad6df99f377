import Catalog
import Countdowns
import Foundation
import HTTPSupport
import Hummingbird

/// The admin API's contract, `GET /api/openapi.json`: an OpenAPI 3.1 document
/// kept beside the routes (`Contract/openapi.json`), read once and served like any
/// asset, with validators and without the admin token (a schema is public).
/// `OpenAPIContractTests` holds it equal to the routes the router has, and
/// sends each operation's example to check the answer is one it documents.
package enum OpenAPIDocument {
    package static let path = "api/openapi.json"

    /// The document as served; nil when the resource bundle is missing (a broken install).
    package static let representation: Representation? = {
        guard let folder = ResourceFolder.find("Contract", in: "tminus_FeedServer.resources"),
              let data = FileManager.default.contents(atPath: folder + "/openapi.json") else { return nil }
        return Representation(bytes: [UInt8](data), contentType: "application/json; charset=utf-8", lastModified: Date(timeIntervalSince1970: 1_790_000_000),
                              cacheControl: "public, max-age=300", extraHeaders: PageHeaders.asset)
    }()

    package static func register(on router: Router<ServerContext>) {
        router.get(RouterPath(stringLiteral: path)) { _, _ in
            guard let document = representation else {
                throw HTTPError(.internalServerError, message: "the API document is not installed (tminus_FeedServer.resources)")
            }
            return document
        }
    }
}

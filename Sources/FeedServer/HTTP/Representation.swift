import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Rendered bytes plus the validators and caching headers that go with them.
/// The strong ETag is a hash of exactly these bytes.
struct Representation: Sendable {
    var bytes: [UInt8]
    var contentType: String
    var etag: String
    var lastModified: Date
    var cacheControl: String
    var contentDisposition: String?

    init(bytes: [UInt8], contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil) {
        self.bytes = bytes
        self.contentType = contentType
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.contentDisposition = contentDisposition
        etag = "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// 200 with the bytes, or 304 with the same validators when the client has them.
    func response(to request: Request, extraHeaders: HTTPFields = [:]) -> Response {
        var headers = extraHeaders
        headers[.eTag] = etag
        headers[.lastModified] = HTTPDate.format(lastModified)
        headers[.cacheControl] = cacheControl
        headers[.vary] = "Accept-Encoding"
        if ConditionalRequest(request.headers).isNotModified(etag: etag, lastModified: lastModified) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if let contentDisposition { headers[.contentDisposition] = contentDisposition }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

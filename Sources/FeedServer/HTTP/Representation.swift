import CompressNIO
import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird

/// Rendered bytes plus the validators and caching headers that go with them.
/// The strong ETag is a hash of exactly these bytes. Routes return it as it is:
/// as a `ResponseGenerator` it answers 200, or 304 when the client has it.
struct Representation: Sendable, ResponseGenerator {
    static let calendarType = "text/calendar; charset=utf-8"

    var bytes: [UInt8]
    var contentType: String
    var etag: String
    var lastModified: Date
    var cacheControl: String
    var contentDisposition: String?
    /// The same content gzipped, with its own ETag, when the server offers gzip.
    var gzipped: (bytes: [UInt8], etag: String)?
    /// Headers that go with every response of this kind (a page's CSP, `nosniff`).
    var extraHeaders: HTTPFields

    init(bytes: [UInt8], contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil, gzip: Bool = false,
         extraHeaders: HTTPFields = [:]) {
        self.extraHeaders = extraHeaders
        self.bytes = bytes
        self.contentType = contentType
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.contentDisposition = contentDisposition
        etag = Self.tag(bytes)
        if gzip, bytes.count > 1024, var buffer = Optional(ByteBuffer(bytes: bytes)),
           var compressed = try? buffer.compress(with: .gzip()), let packed = compressed.readBytes(length: compressed.readableBytes) {
            gzipped = (packed, Self.tag(packed))
        }
    }

    /// A strong ETag: a hash of exactly the bytes served.
    static func tag(_ bytes: [UInt8]) -> String {
        "\"" + SHA256Hex.prefix(bytes, bytes: 16) + "\""
    }

    /// True when Accept-Encoding lists gzip (or *) with a quality above zero.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for coding in header.lowercased().split(separator: ",") {
            let pieces = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first, name == "gzip" || name == "*" else { continue }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }

    /// 200 with the bytes, or 304 with the same validators when the client has them.
    func response(from request: Request, context: some RequestContext) -> Response {
        var headers = extraHeaders
        let variant = gzipped.flatMap { Self.acceptsGzip(request.headers[.acceptEncoding]) ? $0 : nil }
        let (body, tag) = variant ?? (bytes, etag)
        headers[.eTag] = tag
        headers[.lastModified] = HTTPDate.format(lastModified)
        headers[.cacheControl] = cacheControl
        if gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if variant != nil { headers[.contentEncoding] = "gzip" }
        if ConditionalRequest(request.headers).isNotModified(etag: tag, lastModified: lastModified) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if let contentDisposition { headers[.contentDisposition] = contentDisposition }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

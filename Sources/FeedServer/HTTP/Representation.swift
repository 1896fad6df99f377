import CompressNIO
import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationCompat

/// Rendered bytes plus the validators and caching headers that go with them.
/// The strong ETag is a hash of exactly these bytes. Routes return it as it is:
/// as a `ResponseGenerator` it answers 200, or 304 when the client has it.
///
/// Everything a response needs is made once, here: the body is a `ByteBuffer`
/// that every response shares (copy-on-write, so serving the 5 MB calendar of a
/// 10,000-countdown feed copies nothing), and Last-Modified is formatted once.
package struct Representation: Sendable, ResponseGenerator {
    package static let calendarType = "text/calendar; charset=utf-8"

    package let body: ByteBuffer
    package let contentType: String
    package let etag: String
    package let lastModified: Date
    package var cacheControl: String { didSet { headers = Headers(self) } }
    package var contentDisposition: String? { didSet { headers = Headers(self) } }
    /// `Surrogate-Key` (Fastly, Varnish xkey): `feed-<slug>` on a public feed's
    /// outputs, so that a CDN can purge all of them at once. Set per request
    /// (`PublicRoutes.served`), so not part of `headers`.
    package var surrogateKey: String?
    /// The same content gzipped, with its own ETag, when the server offers gzip.
    private(set) var gzipped: (body: ByteBuffer, etag: String)?
    /// Set when the body is too large to hold (a kept export past its share of
    /// `--compiled-mb`): `body` is then empty, and the bytes are read from the
    /// store a chunk at a time as they are sent.
    private(set) var streamed: StreamedBody?
    /// Headers that go with every response of this kind (a page's CSP, `nosniff`).
    package let extraHeaders: HTTPFields
    private let lastModifiedText: String
    /// The response headers, made when the representation is (and again when
    /// one of them is set): a cached response was building them field by
    /// field for every request (issue #41: the 200 and 304 paths).
    private var headers = Headers()

    /// A response's headers for each body it may send.
    private struct Headers {
        var notModified: HTTPFields = [:]
        var ok: HTTPFields = [:]
        var gzipNotModified: HTTPFields = [:]
        var gzipOK: HTTPFields = [:]

        init() {}

        init(_ representation: Representation) {
            for gzip in [false, true] where !gzip || representation.gzipped != nil {
                var headers = representation.extraHeaders
                headers[.eTag] = gzip ? representation.gzipped?.etag : representation.etag
                headers[.lastModified] = representation.lastModifiedText
                headers[.cacheControl] = representation.cacheControl
                if representation.gzipped != nil { headers[.vary] = [headers[.vary], "Accept-Encoding"].compactMap { $0 }.joined(separator: ", ") }
                if gzip { headers[.contentEncoding] = "gzip" }
                let notModified = headers
                headers[.contentType] = representation.contentType
                if let disposition = representation.contentDisposition { headers[.contentDisposition] = disposition }
                if gzip { (gzipNotModified, gzipOK) = (notModified, headers) } else { (self.notModified, ok) = (notModified, headers) }
            }
        }
    }

    /// The body's size (sent, not only held).
    package var byteCount: Int { streamed?.length ?? body.readableBytes }
    /// Counts capacity, not length: the cache's budget is about memory held, and
    /// a buffer NIO made holds the next power of two (a 5.6 MB calendar held
    /// 8.4 MB, measured with massif; bodies made here are `ByteBuffer.exactly`).
    package var cachedSize: Int { body.capacity + (gzipped?.body.capacity ?? 0) + 512 }
    /// What `privately()` answers with: the same max-age, `private`. Made once
    /// here, not per token request.
    private let privateCacheControl: String
    /// A copy of the body (for tests and tools; responses share `body`).
    package var bytes: [UInt8] { Array(body.readableBytesView) }

    package init(bytes: [UInt8], contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil, gzip: Bool = false,
         extraHeaders: HTTPFields = [:]) {
        let body = bytes.withUnsafeBytes { ByteBuffer.exactly($0) }
        var gzipped: (body: ByteBuffer, etag: String)?
        if gzip, bytes.count > 1024, var buffer = Optional(body), let compressed = try? buffer.compress(with: .gzip()) {
            gzipped = (ByteBuffer.exactly(compressed), Self.tag(Array(compressed.readableBytesView)))
        }
        self.init(body: body, etag: Self.tag(bytes), gzipped: gzipped, contentType: contentType, lastModified: lastModified, cacheControl: cacheControl,
                  contentDisposition: contentDisposition, extraHeaders: extraHeaders)
    }

    /// Bytes whose validators were computed when they were rendered (a kept export).
    package init(body: ByteBuffer, etag: String, gzipped: (body: ByteBuffer, etag: String)?, contentType: String, lastModified: Date, cacheControl: String,
         contentDisposition: String? = nil, extraHeaders: HTTPFields = [:]) {
        self.extraHeaders = extraHeaders
        self.body = body
        self.etag = etag
        self.gzipped = gzipped
        self.contentType = contentType
        self.lastModified = lastModified
        lastModifiedText = HTTPDate.format(lastModified)
        self.cacheControl = cacheControl
        privateCacheControl = RenderSettings.privateCacheControl(maxAge: RenderSettings.maxAge(of: cacheControl))
        self.contentDisposition = contentDisposition
        headers = Headers(self)
    }

    /// A body sent from where it is kept, with validators computed when it was rendered.
    package init(streamed: StreamedBody, etag: String, contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil) {
        self.init(body: ByteBuffer(), etag: etag, gzipped: nil, contentType: contentType, lastModified: lastModified, cacheControl: cacheControl,
                  contentDisposition: contentDisposition)
        self.streamed = streamed
        headers = Headers(self)
    }

    /// The bytes and validators, as a store keeps them (`KeptExport`): the
    /// same buffers, not copies (a 55 MB export is already held once while it
    /// is written to the store).
    package var kept: KeptExport.Bytes {
        KeptExport.Bytes(body: body, etag: etag, gzipped: gzipped?.body, gzippedEtag: gzipped?.etag)
    }

    package static let surrogateKeyField = HTTPField.Name("Surrogate-Key")!

    /// The same bytes for one holder of a token link: no shared cache may keep
    /// them, whatever the feed's own setting, and no purge key names them.
    package func privately() -> Representation {
        var copy = self
        copy.cacheControl = privateCacheControl
        copy.surrogateKey = nil
        return copy
    }

    /// A strong ETag: a hash of exactly the bytes served.
    package static func tag(_ bytes: [UInt8]) -> String {
        "\"" + SHA256Hex.prefix(bytes, bytes: 16) + "\""
    }

    /// `tag(_:)` of the parts joined (a large export written in parts).
    package static func tag(parts: [[UInt8]]) -> String {
        "\"" + SHA256Hex.prefix(parts: parts, bytes: 16) + "\""
    }

    /// True when Accept-Encoding lists gzip (or *) with a quality above zero.
    package static func acceptsGzip(_ header: String?) -> Bool {
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
    package func response(from request: Request, context: some RequestContext) -> Response {
        let gzip = gzipped != nil && Self.acceptsGzip(request.headers[.acceptEncoding])
        let (body, tag) = gzip ? (gzipped?.body ?? self.body, gzipped?.etag ?? etag) : (self.body, etag)
        if ConditionalRequest(request.headers).isNotModified(etag: tag, lastModified: lastModified) {
            return Response(status: .notModified, headers: withSurrogateKey(gzip ? headers.gzipNotModified : headers.notModified))
        }
        let sent = withSurrogateKey(gzip ? headers.gzipOK : headers.ok)
        if let streamed { return Response(status: .ok, headers: sent, body: streamed.responseBody) }
        return Response(status: .ok, headers: sent, body: .init(byteBuffer: body))
    }

    private func withSurrogateKey(_ headers: HTTPFields) -> HTTPFields {
        guard let surrogateKey else { return headers }
        var headers = headers
        headers[Self.surrogateKeyField] = surrogateKey
        return headers
    }
}

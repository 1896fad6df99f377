import CompressNIO
import CountdownStore
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat

/// Rendered bytes plus the validators and caching headers that go with them.
/// The strong ETag is a hash of exactly these bytes. Routes return it as it is:
/// as a `ResponseGenerator` (HTTPSupport) it answers 200, or 304 when the client
/// has it; what to answer is decided here, with no HTTP server in sight.
///
/// Everything a response needs is made once, here: the body is a `ByteBuffer`
/// that every response shares (copy-on-write, so serving the 5 MB calendar of a
/// 10,000-countdown feed copies nothing), and Last-Modified is formatted once.
package struct Representation: Sendable {
    package static let calendarType = "text/calendar; charset=utf-8"

    /// Everything, in one immutable object: a cached response is copied
    /// several times on its way out (cache, catalog, route, response), and a
    /// struct of fifteen references was retained and released field by field
    /// at each copy (issue #41: the 304 path). Setting a header makes a new one.
    private var content: Content

    package var body: ByteBuffer { content.body }
    package var contentType: String { content.contentType }
    package var etag: String { content.etag }
    package var lastModified: Date { content.lastModified }
    package var cacheControl: String {
        get { content.fields.cacheControl }
        set { content = content.with { $0.cacheControl = newValue } }
    }
    package var contentDisposition: String? {
        get { content.fields.contentDisposition }
        set { content = content.with { $0.contentDisposition = newValue } }
    }
    /// `Surrogate-Key` (Fastly, Varnish xkey): `feed-<slug>` on a public feed's
    /// outputs, so that a CDN can purge all of them at once. Given when a
    /// feed's output is made (`forFeed`), so that its headers are made once.
    package var surrogateKey: String? { content.fields.surrogateKey?.key }
    /// The same content gzipped, with its own ETag, when the server offers gzip.
    var gzipped: (body: ByteBuffer, etag: String)? { content.gzipped }
    /// Set when the body is too large to hold (a kept export past its share of
    /// `--compiled-mb`): `body` is then empty, and the bytes are read from the
    /// store a chunk at a time as they are sent.
    var streamed: StreamedBody? { content.streamed }

    /// The parts of a response that may be set after it is made.
    private struct Fields {
        var cacheControl: String
        var contentDisposition: String?
        /// The feed whose key it is, beside the key: `forFeed` compares slugs, not strings it would have to make.
        var surrogateKey: (feed: String, key: String)?

        init(cacheControl: String, contentDisposition: String?, feed: String?) {
            self.cacheControl = cacheControl
            self.contentDisposition = contentDisposition
            surrogateKey = feed.map { ($0, Representation.surrogateKey(forFeed: $0)) }
        }
    }

    private final class Content: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
        let lastModified: Date
        let gzipped: (body: ByteBuffer, etag: String)?
        let streamed: StreamedBody?
        /// Headers that go with every response of this kind (a page's CSP, `nosniff`).
        let extraHeaders: HTTPFields
        let lastModifiedText: String
        let fields: Fields
        /// What `privately()` answers with: the same max-age, `private`. Made once
        /// here, not per token request.
        let privateCacheControl: String
        /// The response headers, made when the representation is (and again when
        /// one of them is set): a cached response was building them field by
        /// field for every request (issue #41: the 200 and 304 paths).
        let headers: Headers

        init(body: ByteBuffer, contentType: String, etag: String, lastModified: Date, lastModifiedText: String? = nil,
             gzipped: (body: ByteBuffer, etag: String)?, streamed: StreamedBody?, extraHeaders: HTTPFields, fields: Fields,
             privateCacheControl: String? = nil) {
            self.body = body
            self.contentType = contentType
            self.etag = etag
            self.lastModified = lastModified
            self.lastModifiedText = lastModifiedText ?? HTTPDate.format(lastModified)
            self.gzipped = gzipped
            self.streamed = streamed
            self.extraHeaders = extraHeaders
            self.fields = fields
            self.privateCacheControl = privateCacheControl ?? RenderSettings.privateCacheControl(maxAge: RenderSettings.maxAge(of: fields.cacheControl))
            headers = Headers(contentType: contentType, etag: etag, lastModifiedText: self.lastModifiedText, gzippedEtag: gzipped?.etag,
                              extraHeaders: extraHeaders, fields: fields)
        }

        /// The same content with `change` made to its settable fields, and the headers made again.
        func with(_ change: (inout Fields) -> Void) -> Content {
            var fields = fields
            change(&fields)
            // A token link's copy (`privately()`) has the same private value as its original: not parsed and made again per request.
            let keepsPrivate = fields.cacheControl == self.fields.cacheControl || fields.cacheControl == privateCacheControl
            return Content(body: body, contentType: contentType, etag: etag, lastModified: lastModified, lastModifiedText: lastModifiedText,
                           gzipped: gzipped, streamed: streamed, extraHeaders: extraHeaders, fields: fields,
                           privateCacheControl: keepsPrivate ? privateCacheControl : nil)
        }
    }

    /// A response's headers for each body it may send.
    private struct Headers {
        var notModified: HTTPFields = [:]
        var ok: HTTPFields = [:]
        var gzipNotModified: HTTPFields = [:]
        var gzipOK: HTTPFields = [:]

        init(contentType: String, etag: String, lastModifiedText: String, gzippedEtag: String?, extraHeaders: HTTPFields, fields: Fields) {
            for gzip in [false, true] where !gzip || gzippedEtag != nil {
                var headers = extraHeaders
                headers[.eTag] = gzip ? gzippedEtag : etag
                headers[.lastModified] = lastModifiedText
                headers[.cacheControl] = fields.cacheControl
                if gzippedEtag != nil { headers[.vary] = [headers[.vary], "Accept-Encoding"].compactMap { $0 }.joined(separator: ", ") }
                if gzip { headers[.contentEncoding] = "gzip" }
                if let surrogateKey = fields.surrogateKey { headers[Representation.surrogateKeyField] = surrogateKey.key }
                let notModified = headers
                headers[.contentType] = contentType
                if let disposition = fields.contentDisposition { headers[.contentDisposition] = disposition }
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
    /// A copy of the body (for tests and tools; responses share `body`).
    package var bytes: [UInt8] { Array(body.readableBytesView) }

    /// `feed`: the feed these bytes are an output of, whose `Surrogate-Key` they are served with (`forFeed`).
    package init(bytes: [UInt8], contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil, gzip: Bool = false,
         extraHeaders: HTTPFields = [:], feed: String? = nil) {
        let body = bytes.withUnsafeBytes { ByteBuffer.exactly($0) }
        var gzipped: (body: ByteBuffer, etag: String)?
        if gzip, bytes.count > 1024, var buffer = Optional(body), let compressed = try? buffer.compress(with: .gzip()) {
            gzipped = (ByteBuffer.exactly(compressed), Self.tag(Array(compressed.readableBytesView)))
        }
        self.init(body: body, etag: Self.tag(bytes), gzipped: gzipped, contentType: contentType, lastModified: lastModified, cacheControl: cacheControl,
                  contentDisposition: contentDisposition, extraHeaders: extraHeaders, feed: feed)
    }

    /// Bytes whose validators were computed when they were rendered (a kept export).
    package init(body: ByteBuffer, etag: String, gzipped: (body: ByteBuffer, etag: String)?, contentType: String, lastModified: Date, cacheControl: String,
         contentDisposition: String? = nil, extraHeaders: HTTPFields = [:], feed: String? = nil) {
        content = Content(body: body, contentType: contentType, etag: etag, lastModified: lastModified, gzipped: gzipped, streamed: nil,
                          extraHeaders: extraHeaders,
                          fields: Fields(cacheControl: cacheControl, contentDisposition: contentDisposition, feed: feed))
    }

    /// A body sent from where it is kept, with validators computed when it was rendered.
    package init(streamed: StreamedBody, etag: String, contentType: String, lastModified: Date, cacheControl: String, contentDisposition: String? = nil,
                 feed: String? = nil) {
        content = Content(body: ByteBuffer(), contentType: contentType, etag: etag, lastModified: lastModified, gzipped: nil, streamed: streamed,
                          extraHeaders: [:],
                          fields: Fields(cacheControl: cacheControl, contentDisposition: contentDisposition, feed: feed))
    }

    /// The bytes and validators, as a store keeps them (`KeptExport`): the
    /// same buffers, not copies (a 55 MB export is already held once while it
    /// is written to the store).
    package var kept: KeptExport.Bytes {
        KeptExport.Bytes(body: body, etag: etag, gzipped: gzipped?.body, gzippedEtag: gzipped?.etag)
    }

    package static let surrogateKeyField = HTTPField.Name("Surrogate-Key")!

    /// The `Surrogate-Key` of a feed's public outputs: one key purges them all.
    package static func surrogateKey(forFeed slug: String) -> String { "feed-" + slug }

    /// These bytes as feed `slug`'s public link serves them, with its
    /// `Surrogate-Key`: free when the output was made for that feed (each of a
    /// feed's outputs is), else the headers are made again.
    package func forFeed(_ slug: String) -> Representation {
        if content.fields.surrogateKey?.feed == slug { return self }
        var copy = self
        copy.content = content.with { $0.surrogateKey = (slug, Self.surrogateKey(forFeed: slug)) }
        return copy
    }

    /// The same bytes for one holder of a token link: no shared cache may keep
    /// them, whatever the feed's own setting, and no purge key names them.
    package func privately() -> Representation {
        var copy = self
        copy.content = content.with { fields in
            fields.cacheControl = content.privateCacheControl
            fields.surrogateKey = nil
        }
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

    /// What a request with these headers gets.
    package enum Answer {
        /// 304 with the same validators: the client has these bytes.
        case notModified(HTTPFields)
        /// 200 with the bytes (gzipped when the client takes it).
        case ok(HTTPFields, ByteBuffer)
        /// 200 with a body read a chunk at a time from where it is kept.
        case streamed(HTTPFields, StreamedBody)
    }

    /// 200 with the bytes, or 304 with the same validators when the client has them.
    package func answer(to request: HTTPFields) -> Answer {
        let content = content
        let gzip = content.gzipped != nil && Self.acceptsGzip(request[.acceptEncoding])
        let (body, tag) = gzip ? (content.gzipped?.body ?? content.body, content.gzipped?.etag ?? content.etag) : (content.body, content.etag)
        if ConditionalRequest.isNotModified(request, etag: tag, lastModified: content.lastModified) {
            return .notModified(gzip ? content.headers.gzipNotModified : content.headers.notModified)
        }
        let sent = gzip ? content.headers.gzipOK : content.headers.ok
        if let streamed = content.streamed { return .streamed(sent, streamed) }
        return .ok(sent, body)
    }
}

import Countdowns
import Foundation
import NIOCore

/// A feed's exported calendar (`/feeds/{slug}.ics`) as a server rendered it,
/// kept in the store so that a server whose compiled feeds do not all fit in
/// memory answers a miss with one read instead of a compile (issue #25).
///
/// It is a cache of a render, not data: `tminus copy` leaves it out, it goes
/// with its feed, and a reader trusts it only for the revision and `variant`
/// it was written for. One row per feed and view (`Redaction`); the next
/// revision's render replaces it.
public struct KeptExport: Sendable, Equatable {
    /// The rendered bytes and their validators, computed once when rendered.
    ///
    /// The bodies are `ByteBuffer`s: a store reads a body straight into the
    /// buffer a response sends, and a server keeps the buffer it rendered. As
    /// `Data`, a miss of a feed not in memory copied its 56 KB twice more
    /// (issue #41).
    public struct Bytes: Sendable, Equatable {
        /// Empty when read as a summary (`keptExport(slug:view:bodyUpTo:)`): `length` says how long it is.
        public var body: ByteBuffer
        public var length: Int
        public var etag: String
        /// The same body gzipped, where the server offers gzip.
        public var gzipped: ByteBuffer?
        public var gzippedEtag: String?

        public init(body: ByteBuffer, length: Int? = nil, etag: String, gzipped: ByteBuffer? = nil, gzippedEtag: String? = nil) {
            self.body = body
            self.length = length ?? body.readableBytes
            self.etag = etag
            self.gzipped = gzipped
            self.gzippedEtag = gzippedEtag
        }
    }

    /// The feed's revision the bytes were rendered from.
    public var revision: Int64
    /// Everything else the bytes depend on (the build that wrote them, the
    /// server's base URL, the years repeats are spelled out for), as one
    /// fingerprint: a row of another variant is rendered again, not served.
    public var variant: String
    /// nil when written for a view that hides nothing of this feed: the full
    /// view's row serves it, so a public feed's bytes are stored once. Reads
    /// always answer with the bytes.
    public var bytes: Bytes?

    public init(revision: Int64, variant: String, bytes: Bytes?) {
        self.revision = revision
        self.variant = variant
        self.bytes = bytes
    }

    /// Resolves a view's row against the full view's: the view's own bytes, or
    /// the full row's when the view was written as the same and both are of
    /// one revision and variant. nil when nothing usable is kept.
    public static func resolved(view: KeptExport?, full: KeptExport?) -> KeptExport? {
        guard let view else { return nil }
        if view.bytes != nil { return view }
        guard let full, full.bytes != nil, full.revision == view.revision, full.variant == view.variant else { return nil }
        return full
    }
}

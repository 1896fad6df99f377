import NIOCore

/// A body sent a chunk at a time from where it is kept, never held whole: the
/// exported calendar of a feed too large for its share of `--compiled-mb`
/// (a 100,000-countdown feed's is 55 MB). Content-Length is sent first; if
/// what is kept changes while it is sent (a new revision replaced it), the
/// connection is closed short of that length, and the client asks again.
package struct StreamedBody: Sendable {
    /// Bytes read from the store at a time.
    package static let chunkBytes = 1 << 20

    package let length: Int
    /// Up to `chunkBytes` from an offset; nil when what is kept changed.
    package let read: @Sendable (_ offset: Int) async throws -> ByteBuffer?

    package struct Changed: Error, CustomStringConvertible {
        package init() {}
        package var description: String { "the kept body changed while it was sent" }
    }
}

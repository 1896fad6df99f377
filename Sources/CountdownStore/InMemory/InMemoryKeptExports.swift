import Countdowns
import NIOCore

/// An in-memory store's kept exports, beside its tables (`InMemoryCountdownStore.exports`).
struct InMemoryKeptExports: KeptExports {
    let store: InMemoryCountdownStore

    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        guard let id = store.row(slug: slug)?.id else { return nil }
        let kept = store.exports.withLock { $0[id] ?? [:] }
        guard var resolved = KeptExport.resolved(view: kept[view], full: kept[Redaction.none]) else { return nil }
        if let length = resolved.bytes?.length, length > maxBytes {
            resolved.bytes?.body = ByteBuffer()
            resolved.bytes?.gzipped = nil
        }
        return resolved
    }

    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer? {
        guard let kept = try await keptExport(slug: slug, view: view, bodyUpTo: .max), kept.revision == revision, kept.variant == variant,
              let body = kept.bytes?.body else { return nil }
        let start = min(max(offset, 0), body.readableBytes)
        return body.getSlice(at: body.readerIndex + start, length: min(max(length, 0), body.readableBytes - start))
    }

    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        guard let feed = store.row(slug: slug), let id = feed.id, feed.revision == export.revision else { return }
        store.exports.withLock { exports in
            if let kept = exports[id]?[view], kept.revision > export.revision || kept == export { return }
            exports[id, default: [:]][view] = export
        }
    }
}

import Countdowns
import CountdownStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Writes each compiled feed's export to the store (`KeptExport`), after the
/// request that compiled it has its answer, so that a restarted server or
/// another replica answers a calendar client's miss from those bytes
/// (issue #25). A queue drained by a background `Service`, not a detached task
/// per compile: writes happen in order, one at a time, and `drain()` awaits
/// every write asked for so far (a test, or the shutdown, calls it).
///
/// It also remembers which revision and variant of each view is kept, so that
/// compiling a feed again (after an eviction) does not write the same bytes again.
package final class ExportKeeper: Service, Sendable {
    package struct View: Hashable, Sendable {
        package var slug: String
        package var redaction: Redaction

        package init(slug: String, redaction: Redaction) {
            self.slug = slug
            self.redaction = redaction
        }
    }

    private struct Job: Sendable {
        var export: KeptExport
        var view: View
    }

    private let store: any CountdownStore
    private let logger: Logger
    private let pending = Mutex<[Job]>([])
    private let kept = Mutex<[View: (revision: Int64, variant: String)]>([:])
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// One drain at a time: the service's and a caller's take turns, so that a
    /// caller's returns only after the write the service had started.
    private let turns = SerialJobs()

    package init(store: any CountdownStore, logger: Logger) {
        self.store = store
        self.logger = logger
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether `view`'s export of that revision and variant is in the store already.
    package func isKept(_ view: View, revision: Int64, variant: String) -> Bool {
        kept.withLock { $0[view].map { $0.revision == revision && $0.variant == variant } ?? false }
    }

    /// Notes an export found in the store.
    package func noteKept(_ view: View, revision: Int64, variant: String) {
        kept.withLock { $0[view] = (revision, variant) }
    }

    /// Forgets the views of feeds that are gone.
    package func forget(keeping slugs: Set<String>) {
        kept.withLock { $0 = $0.filter { slugs.contains($0.key.slug) } }
    }

    /// Asks for `export` to be written for `view`; returns at once.
    package func keep(_ export: KeptExport, for view: View) {
        pending.withLock { $0.append(Job(export: export, view: view)) }
        wake.yield()
    }

    /// Writes `export` now, for a caller that holds no other copy of the bytes (a large export sent from the store).
    package func keepNow(_ export: KeptExport, for view: View) async throws {
        try await store.keptExports.keepExport(export, slug: view.slug, view: view.redaction)
        noteKept(view, revision: export.revision, variant: export.variant)
        // A store copies the bytes to write them (a 10k feed's 5.5 MB export, after the compile's own trim): given back at once.
        if (export.bytes?.length ?? 0) >= HeapTrim.afterRenderBytes { HeapTrim.now() }
    }

    /// Writes everything asked for so far, in order, and returns when it is written.
    package func drain() async {
        await turns.run { [self] in
            while let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                do { try await keepNow(job.export, for: job.view) } catch {
                    logger.debug("cannot keep the export in the store", metadata: ["feed": "\(job.view.slug)", "error": "\(error)"])
                }
            }
        }
    }

    package func run() async throws {
        for await _ in wakeups.cancelOnGracefulShutdown() { await drain() }
        await drain()
    }
}

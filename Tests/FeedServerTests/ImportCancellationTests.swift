import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import Rules
import ServerTestSupport
import Testing
import TestSupport

/// The second audit: SIGTERM during an import with slow rules took 86 s,
/// as nothing inside the import looked at the shutdown. A cancelled import
/// now stops at its next check: between two events, and inside a long match.
/// (How long that takes is a wall-clock matter for the quiet pass; here it
/// is enough that the work stops instead of finishing.)
struct ImportCancellationTests {
    @Test func aCancelledJobStopsAtItsNextCheck() async throws {
        let pool = WorkerPool(name: "test-cancel", threads: 1)
        let started = Signal()
        let job = Task {
            try await pool.run {
                started.fire()
                // Without the cancellation reaching the job, it ends after 600 s without throwing: a hang guard
                // far past any starvation (at 30 s, a test task starved that long under load cancelled too late).
                let until = ContinuousClock.now + .seconds(600)
                while ContinuousClock.now < until { try WorkerPool.checkCancellation() }
            }
        }
        await started.wait()
        job.cancel()
        await #expect(throws: CancellationError.self) { try await job.value }
    }

    @Test func rulesInAnImportStopInsideALongMatchWhenTheImportIsCancelled() async throws {
        // Matching this pattern over these texts takes many seconds of CPU; the import is cancelled after 100 ms.
        let pattern = try LinearPattern("(a|b|c|d){0,300}z")
        let texts = (0..<200).map { _ in String(repeating: "ab", count: 30_000) }
        let pool = WorkerPool(name: "test-import", threads: 1)
        let started = Signal()
        let job = Task {
            try await pool.run {
                started.fire()
                let budget = WorkBudget(limit: .seconds(600)) { WorkerPool.isCancelled }
                for text in texts { _ = try pattern.matches(text) { () throws(WorkBudget.Exhausted) in try budget.check() } }
            }
        }
        await started.wait()
        job.cancel()
        // Not cancelled, the job would finish all 200 texts and throw nothing.
        await #expect(throws: WorkBudget.Exhausted.stopped) { try await job.value }
    }
}

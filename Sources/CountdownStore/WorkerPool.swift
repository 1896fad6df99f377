import Foundation
import Synchronization

/// A fixed number of threads of its own, running jobs in the order given.
///
/// Why not `DispatchQueue.global`: on Linux, libdispatch gives its global
/// queues about one thread per core, and Swift's cooperative pool (every
/// request handler) runs on those same threads. Two imports running
/// minutes-long rules there left no thread for requests: `/healthz` went
/// 40–150 s without an answer (the second audit). Work on these threads
/// never takes one from a request.
public final class WorkerPool: Sendable {
    /// One job: its work and whether the awaiting task was cancelled.
    package final class Job: Sendable {
        package let run: @Sendable (Job) -> Void
        package let cancelled = Atomic<Bool>(false)
        package init(run: @escaping @Sendable (Job) -> Void) { self.run = run }
    }

    private let queue = Mutex<[Job]>([])
    private let ready = DispatchSemaphore(value: 0)
    public let name: String
    public let threads: Int

    public init(name: String, threads: Int) {
        self.name = name
        self.threads = max(1, threads)
        for index in 0..<self.threads {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    private func work() {
        while true {
            ready.wait()
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            Thread.current.threadDictionary[WorkerPool.jobKey] = job
            job.run(job)
            Thread.current.threadDictionary.removeObject(forKey: WorkerPool.jobKey)
        }
    }

    private static let jobKey = "tminus.worker-pool.job"

    /// Runs `work` on one of the pool's threads and awaits its result. When
    /// the awaiting task is cancelled, `WorkerPool.isCancelled` turns true
    /// inside `work`, whose loops check it and stop.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let box = Mutex<Job?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let job = Job { job in
                    continuation.resume(with: Result {
                        guard !job.cancelled.load(ordering: .relaxed) else { throw CancellationError() }
                        return try work()
                    })
                }
                box.withLock { $0 = job }
                if Task.isCancelled { job.cancelled.store(true, ordering: .relaxed) }
                queue.withLock { $0.append(job) }
                ready.signal()
            }
        } onCancel: {
            box.withLock { $0 }?.cancelled.store(true, ordering: .relaxed)
        }
    }

    /// True inside a job whose awaiting task was cancelled (a shutdown): long loops check it.
    public static var isCancelled: Bool {
        (Thread.current.threadDictionary[jobKey] as? Job)?.cancelled.load(ordering: .relaxed) ?? false
    }

    /// Throws `CancellationError` inside a cancelled job.
    public static func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }
}

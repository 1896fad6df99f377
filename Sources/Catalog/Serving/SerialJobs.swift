import Synchronization

/// Runs async jobs one at a time, in the order they were asked for: a catalog
/// refresh compares revisions and then publishes, and two of them interleaved
/// could publish an older compile over a newer one.
package final class SerialJobs: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    package func run(_ job: @escaping @Sendable () async -> Void) async {
        let task = tail.withLock { tail -> Task<Void, Never> in
            let previous = tail
            let task = Task {
                await previous?.value
                await job()
            }
            tail = task
            return task
        }
        await task.value
    }
}

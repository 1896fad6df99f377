import Foundation

/// A value that threads share, behind a lock ThreadSanitizer can see: the one
/// lock type of the package.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with futex system calls,
/// which ThreadSanitizer does not model, so `make tsan` reported every
/// contended Mutex-guarded value as raced even though each access was inside
/// `withLock` (TimeZoneRegistry's cache, RenderCache's state). A race report
/// that is always false hides the ones that are true. `NSLock` is a pthread
/// mutex, which TSan intercepts; uncontended, it costs about what Mutex does.
/// `Tests/tsan/MutexFalsePositive.swift` shows the difference in 20 lines.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; never call back into the same lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

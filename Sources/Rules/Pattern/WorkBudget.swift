#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time one piece of work may spend (the rules of one source's import:
/// 5 s), counted on the thread that does it, and whether it was asked to
/// stop (a shutdown). Long loops call `check()`; it throws once either holds,
/// so a hostile pattern or a huge calendar cannot hold a thread past its share.
///
/// Used by one thread at a time (an import runs its rules in order), so its
/// counters need no lock; whether to stop is asked of `stopWhen`.
public final class WorkBudget: @unchecked Sendable {
    public enum Exhausted: Error, Sendable, Equatable {
        case overBudget
        case stopped
    }

    /// What the rules of one source import may spend.
    public static let rulesPerImport: Duration = .seconds(5)

    public let limit: Duration
    private var spentNanoseconds: UInt64 = 0
    private var runningSince: UInt64?

    /// Asked at each `check()`: true stops the work (the import thread's
    /// cancellation, which this module cannot see itself).
    private let stopWhen: @Sendable () -> Bool

    public init(limit: Duration, stopWhen: @escaping @Sendable () -> Bool = { false }) {
        self.limit = limit
        self.stopWhen = stopWhen
    }

    /// CPU time spent so far, including a `measure` in progress.
    public var spent: Duration {
        let running = runningSince.map { Self.threadCPU() &- $0 } ?? 0
        return .nanoseconds(Int64(clamping: spentNanoseconds &+ running))
    }

    /// Runs `work` and adds the CPU time it took on this thread.
    public func measure<T>(_ work: () throws(Exhausted) -> T) throws(Exhausted) -> T {
        try check()
        let start = Self.threadCPU()
        runningSince = start
        defer {
            spentNanoseconds &+= Self.threadCPU() &- start
            runningSince = nil
        }
        return try work()
    }

    /// Throws when the budget is spent or a stop was asked for.
    public func check() throws(Exhausted) {
        if stopWhen() { throw .stopped }
        if spent > limit { throw .overBudget }
    }

    /// This thread's CPU time in nanoseconds.
    package static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

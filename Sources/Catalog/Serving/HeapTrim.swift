#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Hands freed heap memory back to the system after work that allocates a lot
/// for a moment: compiling a feed, or rendering a multi-megabyte output.
///
/// Why: glibc keeps freed memory in each thread's arena for reuse. Compiling a
/// 10,000-countdown feed peaks at about 90 MB of heap (parsed rows, component
/// trees, the export calendar) of which about a third stays live, and renders
/// run on their own threads with their own arenas, so without a trim the
/// server's resident size stays at every high-water mark it ever reached. A
/// trim walks the arenas once: milliseconds, after work that took far longer.
package enum HeapTrim {
    /// Outputs at least this large are followed by a trim.
    package static let afterRenderBytes = 1 << 20
    /// So are renders that took at least this long, whatever they made: a
    /// large feed's page, its `countdown.ics` or a 1,000-row JSON page is small
    /// but allocates megabytes on the way (issue #41: after every output of the
    /// 10k feed, 8 MB of the 46 MB anonymous were freed memory no trim had
    /// given back, measured by calling `malloc_trim` from gdb). A trim of that
    /// server's heap took 0.02-0.8 ms (timed around the call), a few percent of such a render.
    package static let afterRenderDuration = Duration.milliseconds(10)

    /// Whether a render of `bytes` that took `duration` is followed by a trim.
    package static func follows(renderOf bytes: Int, taking duration: Duration) -> Bool {
        bytes >= afterRenderBytes || duration >= afterRenderDuration
    }

    package static func now() {
        _ = trim?(0)
        lastTrim.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// A trim unless one ran in the last second: after each of many small
    /// compiles (a server with more feeds than `--compiled-mb` holds evicts
    /// on almost every compile), trimming every time cost 10 ms a compile.
    package static func soon() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastTrim.load(ordering: .relaxed) >= 1_000_000_000 else { return }
        self.now()
    }

    private static let lastTrim = Atomic<UInt64>(0)

    /// Caps glibc's malloc arenas at two. Each thread that allocates may get an
    /// arena of its own (up to eight per core), and freed memory stays in the
    /// arena it came from: with event loops, render threads, compile threads
    /// and Dispatch's workers each keeping their own high-water mark, the
    /// soak's resident size crept past its budget once compiles moved to two
    /// threads (issue #25). `MALLOC_ARENA_MAX` in the environment still wins.
    package static func limitArenas() {
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        _ = option?(-8 /* M_ARENA_MAX */, 2)
    }

    /// glibc's `mallopt`, looked up like `malloc_trim`.
    private static let option: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// glibc's `malloc_trim`, looked up once: Swift's Glibc module does not
    /// import `<malloc.h>`, and other C libraries (musl) do not have it.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}


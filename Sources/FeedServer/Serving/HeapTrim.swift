#if canImport(Glibc)
import Glibc
#endif

/// Hands freed heap memory back to the system after work that allocates a lot
/// for a moment: compiling a feed, or rendering a multi-megabyte output.
///
/// Why: glibc keeps freed memory in each thread's arena for reuse. Compiling a
/// 10,000-countdown feed peaks at about 90 MB of heap (parsed rows, component
/// trees, the export calendar) of which about a third stays live, and renders
/// run on their own threads with their own arenas, so without a trim the
/// server's resident size stays at every high-water mark it ever reached. A
/// trim walks the arenas once: milliseconds, after work that took far longer.
enum HeapTrim {
    /// Outputs at least this large are followed by a trim.
    static let afterRenderBytes = 1 << 20

    static func now() {
        trim?(0)
    }

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

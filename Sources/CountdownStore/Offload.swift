import Foundation

/// Runs blocking or CPU-heavy work (parsing a calendar and running its rules,
/// loading feed definitions) on threads of its own and awaits it: Swift's
/// cooperative pool has one thread per core (two here), and a request
/// handler must never wait behind such work (`WorkerPool` says why not
/// Dispatch's global queues). Compiles and bcrypt have pools of their own.
public enum Offload {
    /// Imports and other CPU-heavy work: two threads, or one per core on larger machines.
    public static let imports = WorkerPool(name: "tminus-import", threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// CalDAV searches that expand repeats (calendar-query, free-busy): threads
    /// of their own, so that a phone's sync never waits behind a long import, nor
    /// an import behind searches.
    public static let searches = WorkerPool(name: "tminus-search", threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await imports.run(work)
    }
}

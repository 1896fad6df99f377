import Dispatch

/// Runs a command's async body and waits for it on the calling thread.
///
/// Why: the CLI stays synchronous, because valgrind cannot follow
/// `dispatch_main`, which an async root command would use for every command
/// (checked again for issue #22: valgrind 3.19 dies with an internal SIGSEGV on
/// a five-line async `main`, so `make valgrind` could not run `tminus` at all).
/// The body runs exactly once, in a task, while the caller blocks on a
/// semaphore; that hand-over is why the boxes below may be unchecked.
func waitFor<T>(_ body: @escaping () async throws -> T) throws -> T {
    let work = Unchecked(body)
    let outcome = Unchecked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do { outcome.value = .success(try await work.value()) } catch { outcome.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.value!.get()
}

private final class Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

import CFuzzer
import Foundation

// Builds the server once (router mode, in memory), writes the seeds into the
// folder named by FUZZ_SEED_DIR when it is set (they hold cursors signed with
// the harness's fixed key), then lets libFuzzer send it requests.
nonisolated(unsafe) var probe: PublicRequests?

func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: T?
    Task {
        result = await work()
        done.signal()
    }
    done.wait()
    return result!
}

probe = blocking { try? await PublicRequests.make() }
guard let ready = probe else {
    FileHandle.standardError.write(Data("FuzzPublicRequests: the server could not be built\n".utf8))
    exit(1)
}
if let folder = ProcessInfo.processInfo.environment["FUZZ_SEED_DIR"] {
    for (index, seed) in blocking({ await ready.seeds() }).enumerated() {
        try? Data(seed.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("request-\(index)"))
    }
}

/// One request per input. Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPublicRequest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, let probe else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: count))
    blocking { await probe.handle(input) }
    return 0
}

var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzPublicRequest(data, count) })

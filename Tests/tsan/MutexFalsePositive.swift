// Why Tests/tsan/suppressions.txt exists: every access below is inside
// `Mutex.withLock`, yet ThreadSanitizer reports races, because Synchronization's
// Mutex on Linux is built on futexes, which TSan does not see.
//   swiftc -sanitize=thread -O Tests/tsan/MutexFalsePositive.swift -o /tmp/mutex-tsan && /tmp/mutex-tsan
// (not part of the package; run by hand).
import Synchronization
import Foundation
final class Box: Sendable { let m = Mutex<(a: [String: Int], b: Set<String>)>(([:], [])) }
let box = Box()
let finished = DispatchSemaphore(value: 0)
let threads = (0..<4).map { t in
    Thread {
        for i in 0..<20000 { _ = box.m.withLock { $0.a["k\(i % 50)"] }; box.m.withLock { $0.a["k\(i % 50)"] = i; $0.b.insert("x\(t)") } }
        finished.signal()
    }
}
threads.forEach { $0.start() }
threads.forEach { _ in finished.wait() }
print(box.m.withLock { $0.a.count })

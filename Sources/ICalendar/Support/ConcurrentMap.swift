import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map`, spread over the cores in contiguous chunks, results in order.
    /// For pure per-item work on large inputs (an import reads and serializes
    /// every countdown of a calendar); small inputs are mapped in place, where
    /// threads would cost more than they save.
    /// Read once: `activeProcessorCount` reads the cgroup's files on Linux,
    /// and was 3% of compiling feeds of 100 countdowns one after another.
    private static var cores: Int { ConcurrentMapCores.count }

    public func concurrentMap<T: Sendable>(minimumChunk: Int = 512, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count >= minimumChunk * 2, Self.cores > 1 else { return map(transform) }
        let cores = Self.cores
        let chunkCount = Swift.min(cores * 4, (count + minimumChunk - 1) / minimumChunk)
        let chunkSize = (count + chunkCount - 1) / chunkCount
        // Results are written straight into the final array: for large elements
        // (a Countdown is several hundred bytes) a second copy is a peak of its own.
        return withoutActuallyEscaping(transform) { transform in
            self.withUnsafeBufferPointer { input in
                nonisolated(unsafe) let input = input
                return [T](unsafeUninitializedCapacity: count) { output, initialized in
                    // Each iteration initializes its own range: no two touch the same memory.
                    nonisolated(unsafe) let output = output
                    DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                        let range = chunk * chunkSize..<Swift.min(count, (chunk + 1) * chunkSize)
                        for index in range { (output.baseAddress! + index).initialize(to: transform(input[index])) }
                    }
                    initialized = count
                }
            }
        }
    }
}

private enum ConcurrentMapCores {
    static let count = ProcessInfo.processInfo.activeProcessorCount
}

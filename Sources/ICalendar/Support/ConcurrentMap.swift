import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map`, spread over the cores in contiguous chunks, results in order.
    /// For pure per-item work on large inputs (an import reads and serializes
    /// every countdown of a calendar); small inputs are mapped in place, where
    /// threads would cost more than they save.
    public func concurrentMap<T: Sendable>(minimumChunk: Int = 512, _ transform: @Sendable (Element) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1, count >= minimumChunk * 2 else { return map(transform) }
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

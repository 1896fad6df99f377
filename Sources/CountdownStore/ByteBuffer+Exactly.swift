@_spi(CustomByteBufferAllocator) import NIOCore
#if canImport(Glibc)
import Glibc
#endif

extension ByteBuffer {
    /// A copy of `bytes` in storage of exactly their size, for a body that is
    /// held and sent many times (a rendered output, a kept export).
    ///
    /// Why: NIO rounds a buffer's storage up to a power of two, so the 5.5 MB
    /// export of a 10k-countdown feed held 8.4 MB (heaptrack) and a 55 KB one
    /// 64 KB; the render cache's budget counts storage, and held a sixth to a
    /// third fewer bodies than it could. Written to later, the buffer grows as
    /// any other (the default allocator's `realloc`).
    package static func exactly(_ bytes: UnsafeRawBufferPointer) -> ByteBuffer {
        guard let source = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(UInt32.max), let memory = malloc(bytes.count) else {
            return ByteBuffer(bytes: bytes)
        }
        memory.copyMemory(from: source, byteCount: bytes.count)
        return ByteBuffer(takingOwnershipOf: UnsafeMutableRawBufferPointer(start: memory, count: bytes.count), allocator: ByteBufferAllocator())
    }

    /// `exactly(_:)` of a buffer's readable bytes, always a copy: a buffer may
    /// be a slice of larger storage (a PostgreSQL row's message) that it keeps
    /// alive whole, and a slice's `capacity` does not tell.
    package static func exactly(_ buffer: ByteBuffer) -> ByteBuffer {
        buffer.withUnsafeReadableBytes { exactly($0) }
    }

    /// A buffer of exactly `count` bytes that `fill` writes in place (a file
    /// read straight into it, no copy after); nil when `fill` says it failed.
    package static func exactly(count: Int, filledBy fill: (UnsafeMutableRawBufferPointer) -> Bool) -> ByteBuffer? {
        guard count > 0 else { return fill(UnsafeMutableRawBufferPointer(start: nil, count: 0)) ? ByteBuffer() : nil }
        guard count <= Int(UInt32.max), let memory = malloc(count) else { return nil }
        let region = UnsafeMutableRawBufferPointer(start: memory, count: count)
        guard fill(region) else {
            free(memory)
            return nil
        }
        return ByteBuffer(takingOwnershipOf: region, allocator: ByteBufferAllocator())
    }
}

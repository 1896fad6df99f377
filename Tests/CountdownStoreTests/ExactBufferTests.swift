import CountdownStore
import NIOCore
import Testing

/// Bodies held for many responses are stored at their size, not NIO's next
/// power of two (issue #41: a 5.5 MB export held 8.4 MB).
struct ExactBufferTests {
    @Test func aBufferOfBytesHoldsExactlyThem() {
        let bytes = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let exact = bytes.withUnsafeBytes { ByteBuffer.exactly($0) }
        #expect(exact.capacity == 5_000, "NIO's own would hold 8,192")
        #expect(ByteBuffer(bytes: bytes).capacity == 8_192, "the rounding this avoids")
        #expect(Array(exact.readableBytesView) == bytes)
    }

    @Test func aSliceIsCopiedOutOfItsLargerStorage() {
        var whole = ByteBuffer(bytes: Array(repeating: UInt8(ascii: "a"), count: 3_000) + Array("tail".utf8))
        whole.moveReaderIndex(forwardBy: 3_000)
        let exact = ByteBuffer.exactly(whole)
        #expect(exact.capacity == 4 && String(buffer: exact) == "tail")
    }

    @Test func aHeldBufferStillGrowsWhenWrittenTo() {
        var exact = Array("BEGIN".utf8).withUnsafeBytes { ByteBuffer.exactly($0) }
        exact.writeString(":VCALENDAR")
        #expect(String(buffer: exact) == "BEGIN:VCALENDAR")
    }

    @Test func noBytesMakeAnEmptyBuffer() {
        #expect([UInt8]().withUnsafeBytes { ByteBuffer.exactly($0) }.readableBytes == 0)
    }
}

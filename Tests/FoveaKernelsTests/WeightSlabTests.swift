import XCTest
import FoveaCore
@testable import FoveaKernelsBackend

final class WeightSlabTests: XCTestCase {
    /// Buffers of mixed sizes are aligned, never overlap, and keep what was written into them.
    func testPlacedBuffersAreAlignedDisjointAndKeepTheirBytes() {
        var generator = SystemRandomNumberGenerator()
        var placed: [(bytes: UnsafeMutableRawPointer, count: Int, chunk: WeightChunk, fill: UInt8)] = []
        for index in 0..<200 {
            // Mostly small, now and then one of at least half a chunk (its own chunk).
            let count = index % 37 == 36 ? WeightSlab.chunkBytes / 2 + Int.random(in: 0..<1000, using: &generator)
                                          : Int.random(in: 1..<300_000, using: &generator)
            let (bytes, chunk) = WeightSlab.shared.place(byteCount: count)
            XCTAssertEqual(Int(bitPattern: bytes) % WeightSlab.alignment, 0)
            XCTAssertGreaterThanOrEqual(bytes, chunk.base)
            XCTAssertLessThanOrEqual(bytes + count, chunk.base + chunk.capacity)
            let fill = UInt8(truncatingIfNeeded: index)
            bytes.initializeMemory(as: UInt8.self, repeating: fill, count: count)
            placed.append((bytes, count, chunk, fill))
        }
        let sorted = placed.sorted { $0.bytes < $1.bytes }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            XCTAssertLessThanOrEqual(a.bytes + a.count, b.bytes, "buffers overlap")
        }
        for buffer in placed {
            let bytes = buffer.bytes.assumingMemoryBound(to: UInt8.self)
            XCTAssertEqual(bytes[0], buffer.fill)
            XCTAssertEqual(bytes[buffer.count - 1], buffer.fill)
        }
    }

    /// A chunk is freed with the last buffer in it: the slab itself does not keep it alive.
    func testAChunkLivesExactlyAsLongAsItsBuffers() {
        weak var weakChunk: WeightChunk?
        do {
            let placed = WeightSlab.shared.place(byteCount: WeightSlab.chunkBytes)
            weakChunk = placed.chunk
            XCTAssertEqual(placed.bytes, placed.chunk.base)
            XCTAssertGreaterThanOrEqual(placed.chunk.capacity, WeightSlab.chunkBytes)
            withExtendedLifetime(placed.chunk) { XCTAssertNotNil(weakChunk) }
        }
        XCTAssertNil(weakChunk)
    }

    /// Packed weights hold what their packing wrote.
    func testPackedWeightsKeepWhatTheirPackingWrote() {
        let small = PackedWeights(byteCount: 1000) { bytes, count in
            bytes.initializeMemory(as: UInt8.self, repeating: 1, count: count)
        }
        let large = PackedWeights(byteCount: WeightSlab.chunkBytes) { bytes, count in
            bytes.initializeMemory(as: UInt8.self, repeating: 2, count: count)
        }
        XCTAssertEqual(small.bytes.load(fromByteOffset: 999, as: UInt8.self), 1)
        XCTAssertEqual(large.bytes.load(fromByteOffset: WeightSlab.chunkBytes - 1, as: UInt8.self), 2)
    }

    /// A packing that throws propagates its error.
    func testAFailedPackingThrows() {
        struct PackingFailed: Error {}
        XCTAssertThrowsError(try PackedWeights(byteCount: 64) { _, _ in throw PackingFailed() }) {
            XCTAssertTrue($0 is PackingFailed)
        }
    }
}

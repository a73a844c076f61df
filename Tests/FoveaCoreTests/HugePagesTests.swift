import XCTest
@testable import FoveaCore

final class HugePagesTests: XCTestCase {
    /// Every size, small or huge-page sized, comes back aligned and writable end to end.
    func testBuffersAreAlignedAndWritableOverTheirWholeLength() {
        let sizes = [1, 63, 64, 4096, HugePages.pageBytes / 2 - 1, HugePages.pageBytes / 2, HugePages.pageBytes,
                     HugePages.pageBytes + 1, 3 * HugePages.pageBytes + 12345]
        for size in sizes {
            for alignment in [16, 64, 4096] {
                let memory = HugePages.allocate(byteCount: size, alignment: alignment)
                XCTAssertEqual(Int(bitPattern: memory) % alignment, 0, "\(size) bytes, alignment \(alignment)")
                let fill = UInt8(truncatingIfNeeded: size % 251 + alignment)
                let bytes = memory.initializeMemory(as: UInt8.self, repeating: fill, count: size)
                XCTAssertEqual(bytes[0], fill)
                XCTAssertEqual(bytes[size / 2], fill)
                XCTAssertEqual(bytes[size - 1], fill)
                HugePages.deallocate(memory)
            }
        }
    }

    #if os(Linux)
    /// Buffers of half a huge page or more start on a huge page, so the kernel can back them with one.
    func testLargeBuffersStartOnAHugePage() {
        for size in [HugePages.pageBytes / 2, HugePages.pageBytes, 5 * HugePages.pageBytes + 7] {
            let memory = HugePages.allocate(byteCount: size, alignment: 64)
            XCTAssertEqual(Int(bitPattern: memory) % HugePages.pageBytes, 0, "\(size) bytes")
            HugePages.deallocate(memory)
        }
    }
    #endif
}

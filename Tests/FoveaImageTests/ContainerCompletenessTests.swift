import Foundation
import Testing
@testable import FoveaImage

/// The container walk that tells a truncated file from a corrupt one.
@Suite struct ContainerCompletenessTests {
    private func jpeg(_ bytes: [UInt8]) -> ContainerCompleteness {
        bytes.withUnsafeBufferPointer { ContainerCompleteness.ofJPEG($0) }
    }

    private func png(_ bytes: [UInt8]) -> ContainerCompleteness {
        bytes.withUnsafeBufferPointer { ContainerCompleteness.ofPNG($0) }
    }

    @Test func completeFilesAreComplete() throws {
        for name in ["red_panda.jpg", "rocket.jpg"] {
            #expect(jpeg([UInt8](try photoData(name))) == .complete)
        }
        for name in ["coffee.png", "chelsea_cat.png"] {
            #expect(png([UInt8](try photoData(name))) == .complete)
        }
        #expect(jpeg([UInt8](Fixture.data(Fixture.cmykJPEG))) == .complete)
    }

    @Test func everyCutIsTruncated() {
        let jpegBytes = [UInt8](Fixture.data(Fixture.grayJPEG))
        for cut in 0..<jpegBytes.count {
            #expect(jpeg(Array(jpegBytes.prefix(cut))) == .truncated, "JPEG cut at \(cut)")
        }
        let pngBytes = [UInt8](Fixture.data(Fixture.palette2PNG))
        for cut in 0..<pngBytes.count {
            #expect(png(Array(pngBytes.prefix(cut))) == .truncated, "PNG cut at \(cut)")
        }
    }

    @Test func brokenMarkersAreMalformed() {
        #expect(jpeg([0xFF, 0xD8, 0x00, 0x11]) == .truncated)  // junk, then nothing
        #expect(jpeg([0xFF, 0xD8, 0x00, 0x11, 0xFF, 0xD9]) == .complete)  // junk before EOI
        #expect(jpeg([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]) == .malformed)  // segment length < 2
        #expect(png([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x49, 0x44, 0x41, 0x54]) == .malformed)
    }
}

import Foundation
import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaImage

/// Issue 34: hostile HEIC, AVIF, WebP and colour profiles give clean, typed
/// errors in bounded time (each under 2 s here; the fuzz target `image` runs
/// the same files as seeds: scripts/ci/fuzz.sh).
final class HostilePhotoTests: XCTestCase {
    private func assertRefused(_ name: String, _ kind: FoveaError.Kind, _ fragment: String,
                               limits: ImageDecodingLimits = .default, file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path(name)))
        let started = Date()
        let error = assertFoveaError(kind, messageContains: fragment, { try ImageDecoder.decode(data: data, fileName: name, limits: limits) },
                                     file: file, line: line)
        XCTAssertEqual(error?.location.file, name, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "\(name) took too long", file: file, line: line)
        // The lazily decoding path (ImageRequestHandler's) refuses it the same way.
        assertFoveaError(kind, { try EncodedImage(data: data, fileName: name, limits: limits).decoded() }, file: file, line: line)
    }

    func testTruncatedFilesAreCleanErrors() throws {
        try assertRefused("cut-panda.heic", .invalidImage, "HEIF data")
        try assertRefused("cut-panda.avif", .invalidImage, "HEIF data")
        try assertRefused("cut-panda.webp", .invalidImage, "truncated WebP data")
        try assertRefused("cut-panda-animated.webp", .invalidImage, "truncated WebP data")
    }

    /// A grid (tiled) HEIC, as iPhones write, that declares 3×3 tiles and references 4.
    func testGridWithMissingTilesIsACleanError() throws {
        try assertRefused("grid-missing-tiles.heic", .invalidImage, "Missing grid images")
    }

    func testDeclaredSizesAreCheckedBeforeDecoding() throws {
        try assertRefused("huge-ispe.heic", .limitExceeded, "12000×12000")
        try assertRefused("huge-canvas.webp", .limitExceeded, "16384×16384", limits: ImageDecodingLimits(maxPixelCount: 4_000_000))
        // --max-pixels applies to the new formats as to JPEG.
        for name in ["panda.heic", "panda.avif", "panda.webp", "panda-animated.webp"] {
            try assertRefused(name, .limitExceeded, "224×168", limits: ImageDecodingLimits(maxPixelCount: 224 * 168 - 1))
        }
    }

    func testBadColourProfilesAreCleanErrors() throws {
        try assertRefused("corrupt-iccp.png", .invalidImage, "ICC profile")
        try assertRefused("enormous-iccp.png", .limitExceeded, "iCCP")
        try assertRefused("missing-app2.jpg", .invalidImage, "2 of 3 pieces")
        // With colour matching off a junk profile is never parsed.
        let junk = try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path("corrupt-iccp.png")))
        XCTAssertNoThrow(try ImageDecoder.decode(data: junk, colorMatching: .off))
    }

    /// Every prefix of a small HEIC, AVIF and WebP fails cleanly or decodes (never traps).
    func testEveryCutOfSmallFilesIsHandled() throws {
        for name in ["panda.avif", "panda-alpha.webp"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path(name)))
            for length in stride(from: 0, to: data.count, by: max(1, data.count / 97)) {
                XCTAssertThrowsError(try ImageDecoder.decode(data: data.prefix(length)), "\(name) cut at \(length)")
            }
        }
    }
}

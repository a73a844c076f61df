import FoveaImage
import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// Translational registration on a real photo moved by known amounts.
final class RegistrationTests: XCTestCase {
    /// Photo windows 320×240 moved by whole and fractional pixels, up to a quarter
    /// of the frame (80, 60), with noise (σ 4 levels) and a brightness change
    /// of +24 levels on the moved frame: within 0.25 px, confident.
    func testShiftsOfARealPhotoAreFoundWithinAQuarterPixel() throws {
        let photo = try FrameTestSupport.photo("coffee.png")  // 600×400
        let base = (x: 140.0, y: 80.0)
        let reference = try FrameTestSupport.window(of: photo, x: base.x, y: base.y, width: 320, height: 240, noise: 4, seed: 1)
        let shifts: [(Double, Double)] = [(0, 0), (3, -2), (-17, 11), (0.5, 0.25), (12.3, -7.7), (-41.6, 29.4), (80, 0), (0, -60), (-79.5, 59.5)]
        var largestError = 0.0
        defer { print("registration 320×240: largest error \(String(format: "%.3f", largestError)) px over \(shifts.count) shifts") }
        for (bx, by) in shifts {
            let moved = try FrameTestSupport.window(of: photo, x: base.x + bx, y: base.y + by, width: 320, height: 240,
                                                    brightness: 24, noise: 4, seed: 2)
            let request = TranslationalImageRegistrationRequest(targetedImage: moved)
            try ImageRequestHandler(image: reference).performAndWait([request] as [any ImageRequest])
            let alignment = try XCTUnwrap(request.results?.first)
            // Content of the moved window sits (bx, by) further right and down in
            // the reference: Vision's tx is +bx, its ty (y up) is -by.
            XCTAssertEqual(alignment.tx, bx, accuracy: 0.25, "shift (\(bx), \(by))")
            XCTAssertEqual(alignment.ty, -by, accuracy: 0.25, "shift (\(bx), \(by))")
            largestError = max(largestError, abs(alignment.tx - bx), abs(alignment.ty + by))
            XCTAssertGreaterThan(alignment.confidence, 0.2, "shift (\(bx), \(by))")
        }
    }

    /// 640×480 frames are analysed on a 320×240 grid (2×2 blocks): still within 0.25 px.
    func testShiftsOfA640x480FrameOnTheHalvedGridAreWithinAQuarterPixel() throws {
        let photo = try FrameTestSupport.photo("coffee.png").resized(width: 1200, height: 800)
        let reference = try FrameTestSupport.window(of: photo, x: 280, y: 160, width: 640, height: 480, noise: 3, seed: 3)
        let shifts = [(1.0, 0.0), (-6.5, 3.25), (25.3, -18.6), (160.0, 120.0), (-150.2, -110.7)]
        var largestError = 0.0
        defer { print("registration 640×480: largest error \(String(format: "%.3f", largestError)) px over \(shifts.count) shifts") }
        for (bx, by) in shifts {
            let moved = try FrameTestSupport.window(of: photo, x: 280 + bx, y: 160 + by, width: 640, height: 480,
                                                    brightness: -20, noise: 3, seed: 4)
            let alignment = try TranslationalImageRegistrationRequest(targetedImage: moved).observation(reference: reference)
            XCTAssertEqual(alignment.tx, bx, accuracy: 0.25, "shift (\(bx), \(by))")
            XCTAssertEqual(alignment.ty, -by, accuracy: 0.25, "shift (\(bx), \(by))")
            largestError = max(largestError, abs(alignment.tx - bx), abs(alignment.ty + by))
        }
    }

    /// A flat frame, even with noise, has nothing to register: confidence near 0,
    /// and a textureless frame (no noise) gives exactly (0, 0) with confidence 0.
    func testAFrameWithoutTextureGivesLowConfidence() throws {
        let photo = try FrameTestSupport.photo("coffee.png")
        let textured = try FrameTestSupport.window(of: photo, x: 100, y: 80, width: 320, height: 240)
        let flat = try RGBImage(width: 320, height: 240, red: 120, green: 130, blue: 140)
        let noisyFlat = try FrameTestSupport.window(of: flat, x: 0, y: 0, width: 319, height: 239, noise: 6, seed: 5)
        let noisyFlat2 = try FrameTestSupport.window(of: flat, x: 0, y: 0, width: 319, height: 239, noise: 6, seed: 6)

        let blank = try TranslationalImageRegistrationRequest(targetedImage: flat).observation(reference: textured)
        XCTAssertEqual(blank.confidence, 0)
        XCTAssertEqual(blank.tx, 0)
        XCTAssertEqual(blank.ty, 0)
        let noise = try TranslationalImageRegistrationRequest(targetedImage: noisyFlat2).observation(reference: noisyFlat)
        XCTAssertLessThan(noise.confidence, 0.05)
        let same = try TranslationalImageRegistrationRequest(targetedImage: textured).observation(reference: textured)
        XCTAssertGreaterThan(same.confidence, 0.95)
        XCTAssertEqual(same.tx, 0, accuracy: 1e-6)
    }

    /// Two different photos share no content: low confidence.
    func testUnrelatedImagesGiveLowConfidence() throws {
        let a = try FrameTestSupport.photo("coffee.png").resized(width: 320, height: 240)
        let b = try FrameTestSupport.photo("chelsea_cat.png").resized(width: 320, height: 240)
        let alignment = try TranslationalImageRegistrationRequest(targetedImage: b).observation(reference: a)
        XCTAssertLessThan(alignment.confidence, 0.1)
    }

    func testImagesOfDifferentSizesOrTooSmallAreRefused() throws {
        let a = try RGBImage(width: 64, height: 48, red: 1, green: 2, blue: 3)
        let b = try RGBImage(width: 48, height: 64, red: 1, green: 2, blue: 3)
        XCTAssertThrowsError(try TranslationalImageRegistrationRequest(targetedImage: b).observation(reference: a)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue("\(error)".contains("64×48"), "\(error)")
        }
        let tiny = try RGBImage(width: 4, height: 4, red: 1, green: 2, blue: 3)
        XCTAssertThrowsError(try TranslationalImageRegistrationRequest(targetedImage: tiny).observation(reference: tiny))
        // A long thin strip keeps a grid of at least 8 cells across: it registers.
        let photo = try FrameTestSupport.photo("coffee.png")
        let strip = try photo.cropped(x: 0, y: 200, width: 580, height: 9), moved = try photo.cropped(x: 20, y: 200, width: 580, height: 9)
        XCTAssertEqual(try TranslationalImageRegistrationRequest(targetedImage: moved).observation(reference: strip).tx, 20, accuracy: 0.5)
    }

    /// A sequence handler gives the same numbers as fresh handlers, frame after frame
    /// (it reuses each frame's spectrum as the next reference).
    func testSequenceHandlerMatchesFreshHandlers() throws {
        let photo = try FrameTestSupport.photo("chelsea_cat.png")  // 451×300
        let frames = try (0..<4).map { try FrameTestSupport.window(of: photo, x: 60 + 7.5 * Double($0), y: 40 - 3 * Double($0), width: 240, height: 180) }
        let sequence = SequenceRequestHandler()
        for (previous, frame) in zip(frames, frames.dropFirst()) {
            let inSequence = TranslationalImageRegistrationRequest(targetedImage: frame)
            try sequence.performAndWait([inSequence], on: previous)
            let fresh = try TranslationalImageRegistrationRequest(targetedImage: frame).observation(reference: previous)
            XCTAssertEqual(inSequence.results, [fresh])
            // Each frame's window is 7.5 px right and 3 px up of the one before.
            XCTAssertEqual(fresh.tx, 7.5, accuracy: 0.25)
            XCTAssertEqual(fresh.ty, 3, accuracy: 0.25)
        }
    }

    /// `fovea register A B`: text and JSON, Vision's signs; different sizes fail with exit 1.
    func testRegisterCommand() throws {
        let photo = try FrameTestSupport.photo("coffee.png")
        let directory = try TestData.temporaryDirectory()
        let a = directory.appendingPathComponent("a.png").path, b = directory.appendingPathComponent("b.png").path
        try ImageEncoder.encode(try photo.cropped(x: 100, y: 100, width: 200, height: 150), forPath: a).write(to: URL(fileURLWithPath: a))
        // B's window is 9 px right and 4 px up of A's.
        try ImageEncoder.encode(try photo.cropped(x: 109, y: 96, width: 200, height: 150), forPath: b).write(to: URL(fileURLWithPath: b))
        let text = try TestData.runFovea(["register", a, b])
        XCTAssertEqual(text.status, 0, text.stderr)
        let numbers = text.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(numbers.count, 3, text.stdout)
        XCTAssertEqual(numbers[0], 9, accuracy: 0.25)
        XCTAssertEqual(numbers[1], 4, accuracy: 0.25)
        XCTAssertGreaterThan(numbers[2], 0.5)
        let json = try TestData.runFovea(["register", "--json", b, a])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Double], json.stdout)
        XCTAssertEqual(try XCTUnwrap(object["tx"]), -9, accuracy: 0.25)
        XCTAssertEqual(try XCTUnwrap(object["ty"]), -4, accuracy: 0.25)
        let mismatch = try TestData.runFovea(["register", a, TestData.photo("coffee.png")])
        XCTAssertEqual(mismatch.status, 1)
        XCTAssertTrue(mismatch.stderr.hasPrefix("error: ") && mismatch.stderr.contains("one size"), mismatch.stderr)
    }
}

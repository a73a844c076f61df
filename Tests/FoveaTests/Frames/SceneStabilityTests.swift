import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// FlowerShop's rule: the last 15 translations summing to less than 20 px (Manhattan).
final class SceneStabilityTests: XCTestCase {
    func testTranslationsStillDriftingShakingThenStillAgain() throws {
        let detector = try SceneStabilityDetector()
        XCTAssertEqual(detector.historyLength, 15)
        XCTAssertEqual(detector.maximumDistance, 20)
        for _ in 0..<14 { detector.add(tx: 0.2, ty: -0.1) }
        XCTAssertFalse(detector.isStable, "14 translations do not fill the history")
        detector.add(tx: 0.2, ty: -0.1)
        XCTAssertTrue(detector.isStable)
        XCTAssertEqual(detector.recentDistance, 4.5, accuracy: 1e-9)
        // Drifting 1.5 px per frame: 15 × 1.5 = 22.5 >= 20.
        for _ in 0..<15 { detector.add(tx: 1.5, ty: 0) }
        XCTAssertFalse(detector.isStable)
        // Shaking: back and forth cancels out in position but not in distance.
        for i in 0..<15 { detector.add(tx: i.isMultiple(of: 2) ? 3 : -3, ty: i.isMultiple(of: 2) ? -2 : 2) }
        XCTAssertFalse(detector.isStable)
        XCTAssertEqual(detector.recentDistance, 75, accuracy: 1e-9)
        // Still again: stable once the shaking has left the history.
        for i in 0..<15 {
            detector.add(tx: 0, ty: 0)
            XCTAssertEqual(detector.isStable, i >= 11, "after \(i + 1) still frames")  // 3 + 2 shaking steps left = 5 ... then 0
        }
    }

    func testHistoryAndThresholdAreConfigurable() throws {
        let detector = try SceneStabilityDetector(historyLength: 3, maximumDistance: 2)
        detector.add(tx: 0.5, ty: 0)
        detector.add(tx: 0.5, ty: 0)
        XCTAssertFalse(detector.isStable)
        detector.add(tx: 0.5, ty: 0.4)
        XCTAssertTrue(detector.isStable)
        detector.add(tx: 0, ty: 0.7)  // 0.5 + 0.9 + 0.7 = 2.1
        XCTAssertFalse(detector.isStable)
        detector.reset()
        XCTAssertEqual(detector.recentDistance, 0)
        XCTAssertFalse(detector.isStable)
        XCTAssertThrowsError(try SceneStabilityDetector(historyLength: 0))
        XCTAssertThrowsError(try SceneStabilityDetector(maximumDistance: -1))
        XCTAssertThrowsError(try SceneStabilityDetector(maximumDistance: .nan))
    }

    /// A low-confidence registration is unknown motion, never stillness.
    func testLowConfidenceCountsAsMovement() throws {
        let detector = try SceneStabilityDetector(historyLength: 2, maximumDistance: 20)
        detector.add(ImageTranslationAlignmentObservation(tx: 0, ty: 0, confidence: 0.9))
        detector.add(ImageTranslationAlignmentObservation(tx: 0, ty: 0, confidence: 0.01))
        XCTAssertFalse(detector.isStable)
        detector.add(ImageTranslationAlignmentObservation(tx: 1, ty: 1, confidence: 0.5))
        detector.add(ImageTranslationAlignmentObservation(tx: 0, ty: 0, confidence: 0.5))
        XCTAssertTrue(detector.isStable)
    }

    /// Fed frames, it registers them itself: a real photo held still (with
    /// noise), drifting 2 px per frame, shaking ±4 px, then still again.
    func testFramesStillDriftingShakingThenStillAgain() throws {
        let photo = try FrameTestSupport.photo("coffee.png")
        let detector = try SceneStabilityDetector()
        var seed: UInt64 = 10
        func frame(_ x: Double, _ y: Double) throws -> RGBImage {
            seed += 1
            return try FrameTestSupport.window(of: photo, x: 200 + x, y: 120 + y, width: 160, height: 120, noise: 3, seed: seed)
        }
        XCTAssertNil(try detector.add(frame: frame(0, 0)), "the first frame has nothing to register against")
        for _ in 0..<15 { try detector.add(frame: frame(0, 0)) }
        XCTAssertTrue(detector.isStable, "still: \(detector.recentDistance)")
        XCTAssertLessThan(detector.recentDistance, 3)
        for i in 1...15 { try detector.add(frame: frame(2 * Double(i), Double(i))) }
        XCTAssertFalse(detector.isStable, "drifting")
        XCTAssertEqual(detector.recentDistance, 45, accuracy: 2)
        for i in 0..<15 { try detector.add(frame: frame(30 + (i.isMultiple(of: 2) ? 4 : -4), 15)) }
        XCTAssertFalse(detector.isStable, "shaking")
        for _ in 0..<15 { try detector.add(frame: frame(30, 15)) }
        XCTAssertTrue(detector.isStable, "still again: \(detector.recentDistance)")
        // A flat frame cannot be registered: unknown motion, unstable.
        try detector.add(frame: RGBImage(width: 160, height: 120, red: 90, green: 90, blue: 90))
        XCTAssertFalse(detector.isStable)
    }
}

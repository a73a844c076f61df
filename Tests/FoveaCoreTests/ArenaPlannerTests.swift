import XCTest
@testable import FoveaCore
import FoveaTestSupport

final class ArenaPlannerTests: XCTestCase {
    func testDisjointLifetimesShareBytes() {
        let layout = ArenaPlanner.place([
            .init(bytes: 1000, firstStep: 0, lastStep: 1),
            .init(bytes: 1000, firstStep: 2, lastStep: 3),
        ])
        XCTAssertEqual(layout.offsets, [0, 0])
        XCTAssertEqual(layout.arenaBytes, 1024)
        XCTAssertEqual(layout.lowerBoundBytes, 1024)
    }

    func testOverlappingLifetimesDoNotShareAndSizesAreAligned() {
        let requests: [ArenaPlanner.Request] = [
            .init(bytes: 10, firstStep: 0, lastStep: 2),
            .init(bytes: 100, firstStep: 1, lastStep: 3),
            .init(bytes: 0, firstStep: 2, lastStep: 2),
        ]
        let layout = ArenaPlanner.place(requests)
        XCTAssertNil(ArenaPlanner.firstOverlap(requests, layout))
        XCTAssertTrue(layout.offsets.allSatisfy { $0 % 64 == 0 })
        XCTAssertEqual(layout.lowerBoundBytes, 64 + 128 + 64)
        XCTAssertEqual(layout.arenaBytes, layout.lowerBoundBytes)
    }

    func testBestFitTakesTheSmallestGap() {
        // A big early buffer and a big late one leave a gap that a small buffer in between fits.
        let requests: [ArenaPlanner.Request] = [
            .init(bytes: 4096, firstStep: 0, lastStep: 5),
            .init(bytes: 1024, firstStep: 0, lastStep: 1),
            .init(bytes: 1024, firstStep: 3, lastStep: 5),
            .init(bytes: 512, firstStep: 2, lastStep: 2),
        ]
        let layout = ArenaPlanner.place(requests)
        XCTAssertNil(ArenaPlanner.firstOverlap(requests, layout))
        XCTAssertEqual(layout.arenaBytes, 4096 + 1024)
    }

    /// 2,000 seeded random request sets: never an overlap, never below the lower bound.
    func testRandomRequestsNeverOverlap() {
        var random = SeededGenerator(seed: 42)
        var worst = 1.0
        var ratios: [Double] = []
        for _ in 0..<2000 {
            let steps = Int.random(in: 1...30, using: &random)
            let requests = (0..<Int.random(in: 1...25, using: &random)).map { _ -> ArenaPlanner.Request in
                let first = Int.random(in: 0..<steps, using: &random)
                let last = Int.random(in: first..<steps, using: &random)
                return .init(bytes: Int.random(in: 0...100_000, using: &random), firstStep: first, lastStep: last)
            }
            let layout = ArenaPlanner.place(requests)
            XCTAssertNil(ArenaPlanner.firstOverlap(requests, layout))
            XCTAssertGreaterThanOrEqual(layout.arenaBytes, layout.lowerBoundBytes)
            let ratio = Double(layout.arenaBytes) / Double(layout.lowerBoundBytes)
            ratios.append(ratio)
            worst = max(worst, ratio)
        }
        ratios.sort()
        print("arena/lower bound over 2000 random request sets: median \(ratios[ratios.count / 2]), worst \(worst)")
    }
}

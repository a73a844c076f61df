import Foundation
import FoveaCore
import XCTest
@_spi(Internals) import Fovea
import FoveaTools
import FoveaFuzzing

/// The fuzz targets' entry points (FuzzEntry), run in every test run: on every
/// input a fuzzer once crashed (`Tests/FuzzRegressions/TARGET/`), on valid seed
/// files (which must be accepted, so the harness is known to reach past the
/// parser), and on seeded truncations and byte flips of those seeds (which may be
/// refused, but must not crash). The long runs are scripts/ci/fuzz.sh.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = TestData.packageRoot.appendingPathComponent("Tests/FuzzRegressions")

    /// Valid files of each kind: small, so a debug build plans them quickly.
    static func seeds(for entry: FuzzEntry) -> [String] {
        switch entry {
        case .onnx: return ["coreml/TinyOps.onnx", "coreml/TinyResNet.onnx"].map(TestData.model)
        case .coreML: return ["coreml/TinyOps.mlmodel", "coreml/TinyMobileNetV2.mlmodel"].map(TestData.model)
        case .image: return ["chelsea_cat.png", "rocket.jpg", "coffee.224.ppm"].map(TestData.photo)
        case .tensor:
            return try! FileManager.default.subpathsOfDirectory(atPath: "/usr/share/libonnx-testdata/data/node/test_relu")
                .filter { $0.hasSuffix(".pb") }.map { "/usr/share/libonnx-testdata/data/node/test_relu/\($0)" }
        }
    }

    func testCommittedCrashInputsNoLongerCrash() throws {
        for entry in FuzzEntry.allCases {
            let folder = Self.regressions.appendingPathComponent(entry.rawValue).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let files = names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { "\(folder)/\($0)" }
            XCTAssertEqual(try entry.runFiles(files), files.count)
        }
    }

    func testSeedsAreAcceptedAllTheWay() throws {
        for entry in FuzzEntry.allCases {
            let seeds = Self.seeds(for: entry)
            XCTAssertFalse(seeds.isEmpty, "\(entry): no seeds")
            for path in seeds {
                XCTAssertTrue(entry.run(try Data(contentsOf: URL(fileURLWithPath: path))), "\(entry) refused the valid \(path)")
            }
        }
        // And a .npy, which the shared data has none of.
        let tensor = try Tensor(shape: [2, 3], floats: [1, 2, 3, 4, 5, 6])
        XCTAssertTrue(FuzzEntry.tensor.run(NumpyFile.encode(tensor)))
    }

    func testTruncatedAndFlippedSeedsAreRefusedOrAcceptedWithoutCrashing() throws {
        var generator = SeededGenerator(seed: 0xF0_7EA)
        var refused = 0, total = 0
        for entry in FuzzEntry.allCases {
            for path in Self.seeds(for: entry) {
                let seed = try Data(contentsOf: URL(fileURLWithPath: path))
                var variants: [Data] = [Data(), seed.prefix(1), seed.prefix(seed.count / 2), seed.dropLast()]
                for _ in 0..<12 {
                    var flipped = seed
                    for _ in 0..<4 {
                        let at = Int(generator.next() % UInt64(flipped.count))
                        flipped[flipped.startIndex + at] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                    }
                    variants.append(flipped)
                }
                for variant in variants {
                    if !entry.run(variant) { refused += 1 }
                    total += 1
                }
            }
        }
        // Truncations must be refused at least; most flips are too.
        XCTAssertGreaterThan(refused, total / 4, "\(refused) of \(total) damaged inputs refused")
    }
}

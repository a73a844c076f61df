import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// The ONNX backend node tests of the conformance manifest (needs `apt-get install libonnx-testdata`).
final class ConformanceTests: XCTestCase {
    private let runner = ConformanceRunner()

    func testEveryListedTestPasses() throws {
        let manifest = try ConformanceManifest.fovea()
        XCTAssertGreaterThanOrEqual(manifest.listed.count, 150)
        let failures = manifest.listed.map(runner.run(test:)).filter { !$0.passed }
        XCTAssertEqual(failures.map { "\($0.name): \($0.failure ?? "")" }, [])
    }

    func testManifestAccountsForEveryTestOfASupportedOp() throws {
        let manifest = try ConformanceManifest.fovea()
        let available = Set(try runner.availableTests())
        let accounted = Set(manifest.listed + manifest.omitted.map(\.name))
        XCTAssertEqual(accounted.subtracting(available).sorted(), [], "manifest names tests the suite does not have")
        let candidates = try runner.testsOfSupportedOperators()
        XCTAssertGreaterThan(candidates.count, 200)
        XCTAssertEqual(Set(candidates).subtracting(accounted).sorted(), [], "tests of supported ops missing from the manifest")
    }

    func testManifestIsTheFoveaToolsResourceFile() throws {
        let resources = PackageResources(target: "FoveaTools")
        let url = try XCTUnwrap(resources.url(forResource: ConformanceManifest.foveaResource), "no Fovea_FoveaTools resource bundle")
        XCTAssertFalse(url.path.contains("/Sources/"), "read from the built bundle, not the source tree: \(url.path)")
        let manifest = try ConformanceManifest(parsing: try String(contentsOf: url, encoding: .utf8))
        XCTAssertEqual(try ConformanceManifest.fovea(), manifest)
        XCTAssertNil(PackageResources(target: "NoSuchTarget").bundle)
    }

    func testRunnerReportsWrongAnswers() throws {
        let expected = try Tensor(shape: [3], floats: [1, 2, 3])
        XCTAssertNoThrow(try runner.compare(try Tensor(shape: [3], floats: [1, 2.001, 3]), expected, label: "close"))
        XCTAssertThrowsError(try runner.compare(try Tensor(shape: [3], floats: [1, 2.01, 3]), expected, label: "far"))
        XCTAssertThrowsError(try runner.compare(try Tensor(shape: [1, 3], floats: [1, 2, 3]), expected, label: "shape"))
        XCTAssertThrowsError(try runner.compare(try Tensor(shape: [3], int64s: [1, 2, 3]), expected, label: "dtype"))
        XCTAssertFalse(runner.run(test: "test_that_does_not_exist").passed)
    }

    func testConformanceCommandEndsWithCounts() throws {
        let result = try TestData.runFovea(["conformance", "--filter", "test_relu"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").last.map(String.init), "1 passed, 0 failed")
        let missing = try TestData.runFovea(["conformance", "--data", "/nonexistent"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("libonnx-testdata"), missing.stderr)
    }

    func testManifestParserRejectsMalformedEntries() {
        XCTAssertThrowsError(try ConformanceManifest(parsing: "- test_x"))
        XCTAssertThrowsError(try ConformanceManifest(parsing: "- test_x:   "))
        XCTAssertThrowsError(try ConformanceManifest(parsing: "test_x\ntest_x"))
        XCTAssertThrowsError(try ConformanceManifest(parsing: "test_x and more"))
        XCTAssertEqual(try ConformanceManifest(parsing: "# c\n\ntest_a\n- test_b: why").listed, ["test_a"])
    }
}

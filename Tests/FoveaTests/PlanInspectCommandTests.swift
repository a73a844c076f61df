import XCTest
@_spi(Internals) @testable import Fovea

/// `fovea inspect --plan [--json] [--svg]` and `--optimized` with the pass switches.
final class PlanInspectCommandTests: XCTestCase {
    func testPlanJSONReportsTheArena() throws {
        let result = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--json",
                                            "--backend", "simd", "--threads", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let arena = try XCTUnwrap(json["arena_bytes"] as? Int)
        let bound = try XCTUnwrap(json["lower_bound_bytes"] as? Int)
        let naive = try XCTUnwrap(json["naive_bytes"] as? Int)
        XCTAssertNotNil(json["scratch_bytes"] as? Int)
        XCTAssertLessThanOrEqual(bound, arena)
        XCTAssertLessThan(arena, naive)
        let values = try XCTUnwrap(json["values"] as? [[String: Any]])
        XCTAssertTrue(values.contains { ($0["placement"] as? String)?.hasPrefix("slice of") == true })
        for value in values {
            XCTAssertNotNil(value["offset"] as? Int)
            XCTAssertNotNil(value["bytes"] as? Int)
            XCTAssertLessThanOrEqual(value["firstStep"] as? Int ?? 0, value["lastStep"] as? Int ?? -1)
        }
        let steps = try XCTUnwrap(json["steps"] as? [[String: Any]])
        XCTAssertTrue(steps.contains { $0["memory"] as? String == "elided concat" })

        let off = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--json",
                                         "--no-elide-concat", "--threads", "1"])
        let offJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any])
        let offSteps = try XCTUnwrap(offJSON["steps"] as? [[String: Any]])
        XCTAssertFalse(offSteps.contains { ($0["memory"] as? String)?.hasPrefix("elided") == true })
    }

    func testPlanTextAndSVG() throws {
        let directory = try TestData.temporaryDirectory()
        let svg = directory.appendingPathComponent("arena.svg").path
        let result = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--svg", svg, "--batch", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("[elided concat]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("arena "), result.stdout)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(picture.hasPrefix("<svg"))
        XCTAssertGreaterThan(picture.components(separatedBy: "<rect").count, 20)
        XCTAssertTrue(picture.contains("lower bound"))
        let bad = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--svg", svg])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--svg needs --plan"), bad.stderr)
    }

    func testOptimizedGraphAndSwitches() throws {
        let model = TestData.model("coreml/TinyResNet.onnx")
        let on = try TestData.runFovea(["inspect", "--model", model, "--optimized"])
        XCTAssertEqual(on.status, 0, on.stderr)
        let off = try TestData.runFovea(["inspect", "--model", model, "--optimized", "--no-fold-bn", "--no-fuse"])
        XCTAssertEqual(off.status, 0, off.stderr)
        let count = { (text: String) in text.split(separator: "\n").count }
        XCTAssertLessThan(count(on.stdout), count(off.stdout), "the passes remove nodes:\n\(on.stdout)\n---\n\(off.stdout)")
        XCTAssertTrue(off.stdout.contains("Relu") || off.stdout.contains("BatchNormalization"), off.stdout)
    }

    /// TinyOps falls back to the reference for some nodes after SIMD ones:
    /// those inherit the upstream steps' tolerance instead of being held to 0.
    func testParityWithFallbacksAfterSIMDSteps() throws {
        let result = try TestData.runFovea(["parity", "--model", TestData.model("coreml/TinyOps.mlmodel"), "--backends", "simd"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("fell back to reference"), result.stdout)
        XCTAssertFalse(result.stdout.contains("EXCEEDS"), result.stdout)
    }

    func testParityWithEachSwitch() throws {
        for flags in [[], ["--no-fold-bn"], ["--no-fuse"], ["--no-elide-concat"]] {
            let result = try TestData.runFovea(["parity", "--model", TestData.model("coreml/TinyResNet.onnx"), "--backends", "simd"] + flags)
            XCTAssertEqual(result.status, 0, "\(flags): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.hasSuffix("parity ok\n"), result.stdout)
        }
    }
}

import XCTest
@_spi(Internals) @testable import Fovea

/// `fovea inspect` on a model with unsupported operators lists all of them;
/// `fovea inspect --ops` lists the supported ones with their opsets.
final class UnsupportedOperatorsCommandTests: XCTestCase {
    /// SqueezeNet 1.1 with every Relu renamed Relx (26 nodes) and every Concat
    /// renamed Concax (8 nodes): two operators Fovea does not know.
    private func patchedSqueezeNet() throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.model("squeezenet1.1.onnx"))))
        // op_type is field 4 (tag 0x22) followed by its length.
        var counts: [String: Int] = [:]
        for (from, to) in [("Relu", "Relx"), ("Concat", "Concax")] {
            let pattern: [UInt8] = [0x22, UInt8(from.utf8.count)] + Array(from.utf8)
            var i = 0
            while i + pattern.count <= bytes.count {
                if Array(bytes[i..<i + pattern.count]) == pattern {
                    bytes.replaceSubrange((i + 2)..<(i + pattern.count), with: Array(to.utf8))
                    counts[to, default: 0] += 1
                }
                i += 1
            }
        }
        XCTAssertEqual(counts, ["Relx": 26, "Concax": 8])
        let url = try TestData.temporaryDirectory().appendingPathComponent("two-unknown-ops.onnx")
        try Data(bytes).write(to: url)
        return url.path
    }

    func testLoadErrorNamesBothOpsWithCounts() throws {
        let path = try patchedSqueezeNet()
        XCTAssertThrowsError(try Model(contentsOfFile: path)) { error in
            let message = String(describing: error)
            XCTAssertEqual((error as? FoveaError)?.kind, .unsupported, message)
            XCTAssertTrue(message.hasPrefix("\(path): 2 unsupported ops: 'Relx' (opset 13) ×26 at nodes '"), message)
            XCTAssertTrue(message.contains("; 'Concax' (opset 13) ×8 at nodes '"), message)
        }
        let listed = try ModelFile.unsupportedOperators(ofFileAt: path)
        XCTAssertEqual(listed.map(\.opType), ["Relx", "Concax"])
        XCTAssertEqual(listed.map(\.count), [26, 8])
        XCTAssertEqual(try ModelFile.unsupportedOperators(ofFileAt: TestData.model("squeezenet1.1.onnx")), [])
    }

    func testInspectListsEveryUnsupportedOp() throws {
        let path = try patchedSqueezeNet()
        let text = try TestData.runFovea(["inspect", "--model", path])
        XCTAssertNotEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("unsupported operators (2):"), text.stdout)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.contains("Relx") && $0.contains("opset 13") && $0.contains("×26") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.contains("Concax") && $0.contains("opset 13") && $0.contains("×8") }, text.stdout)

        let json = try TestData.runFovea(["inspect", "--model", path, "--json"])
        XCTAssertNotEqual(json.status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try XCTUnwrap(object["unsupportedOperators"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["opType"] as? String }, ["Relx", "Concax"])
        XCTAssertEqual(entries.map { ($0["nodes"] as? [String])?.count }, [26, 8])
    }

    func testInspectOpsListsSupportedOperatorsWithOpsets() throws {
        let text = try TestData.runFovea(["inspect", "--ops"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Conv ") && $0.hasSuffix("7–21") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("HardSwish ") && $0.hasSuffix("14–21") }, text.stdout)
        XCTAssertEqual(lines.count, ONNXOperatorSupport.opsets.count + 1)

        let json = try TestData.runFovea(["inspect", "--ops", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let table = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: Int]])
        XCTAssertEqual(table["HardSwish"], ["first": 14, "last": 21])

        let both = try TestData.runFovea(["inspect", "--ops", "--model", TestData.model("squeezenet1.1.onnx")])
        XCTAssertNotEqual(both.status, 0)
        let neither = try TestData.runFovea(["inspect"])
        XCTAssertNotEqual(neither.status, 0)
        XCTAssertTrue(neither.stderr.contains("--model"), neither.stderr)
    }
}

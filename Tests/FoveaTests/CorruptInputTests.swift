import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea

/// Truncated, empty and garbage models and images give typed errors, never a crash.
final class CorruptInputTests: XCTestCase {
    private func write(_ data: Data, named name: String) throws -> String {
        let url = try TestData.temporaryDirectory().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    private func assertModelFails(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try write(data, named: "model.onnx")
        XCTAssertThrowsError(try Model(contentsOfFile: path), label, file: file, line: line) { error in
            guard let error = error as? FoveaError else { return XCTFail("\(label): not a FoveaError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.location.file, path, "\(label): \(error)", file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), file: file, line: line)
        }
    }

    func testTruncatedModelsAreRejected() throws {
        let model = try Data(contentsOf: URL(fileURLWithPath: TestData.model("squeezenet1.1.onnx")))
        for fraction in [0.0001, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.9999] {
            try assertModelFails(model.prefix(Int(Double(model.count) * fraction)), "truncated at \(fraction)")
        }
    }

    func testEmptyAndRandomModelsAreRejected() throws {
        try assertModelFails(Data(), "zero bytes")
        var generator = SeededGenerator(seed: 42)
        for size in [1, 7, 100, 4096] {
            try assertModelFails(Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }), "\(size) random bytes")
        }
        try assertModelFails(Data("this is not a model".utf8), "text")
    }

    func testUnknownOpNamesTheOpAndTheNode() throws {
        // Patch the op_type field (tag 0x22, length 4) of every Relu node: "Relu" -> "Relx".
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.model("squeezenet1.1.onnx"))))
        let pattern: [UInt8] = [0x22, 0x04] + Array("Relu".utf8)
        var patched = 0
        var i = 0
        while i + pattern.count <= bytes.count {
            if Array(bytes[i..<i + pattern.count]) == pattern { bytes[i + 5] = UInt8(ascii: "x"); patched += 1 }
            i += 1
        }
        XCTAssertEqual(patched, 26)
        let path = try write(Data(bytes), named: "unknown-op.onnx")
        XCTAssertThrowsError(try Model(contentsOfFile: path)) { error in
            let message = String(describing: error)
            XCTAssertEqual((error as? FoveaError)?.kind, .unsupported, message)
            XCTAssertTrue(message.contains("unsupported op 'Relx' (opset 13) ×26 at nodes '"), message)
            XCTAssertTrue(message.hasPrefix(path), message)
        }
    }

    func testCorruptImagesAreRejected() throws {
        let request = try ClassificationRequest(model: try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.photo("red_panda.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: TestData.photo("chelsea_cat.png")))
        var generator = SeededGenerator(seed: 7)
        let cases: [(String, Data)] = [
            ("empty.jpg", Data()),
            ("truncated.jpg", jpeg.prefix(jpeg.count / 2)),
            ("header-only.jpg", jpeg.prefix(200)),
            ("truncated.png", png.prefix(png.count / 2)),
            ("header-only.png", png.prefix(40)),
            ("random.jpg", Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })),
            ("random-after-jpeg-magic.jpg", Data([0xFF, 0xD8, 0xFF] + (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })),
        ]
        for (name, data) in cases {
            let path = try write(data, named: name)
            XCTAssertThrowsError(try ImageRequestHandler(contentsOfFile: path).performAndWait(request), name) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidImage, "\(name): \(error)")
                XCTAssertTrue(String(describing: error).contains(name), "\(name): \(error)")
            }
        }
        XCTAssertThrowsError(try ImageRequestHandler(contentsOfFile: "/nonexistent/photo.jpg").performAndWait(request)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .io, "\(error)")
        }
    }
}


import Foundation
import XCTest
import FoveaCore
import FoveaPortableBackend

/// Test data in ../shared/models (beside the package), never copied into the project.
enum CoreMLTestData {
    static let models = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/models")
    static func path(_ relative: String) -> String { models.appendingPathComponent(relative).path }

    /// A raw little-endian float32 file.
    static func floats(_ relative: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(relative)))
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 4).map { (i: Int) -> Float in
            var bits = UInt32(bytes[i])
            bits |= UInt32(bytes[i + 1]) << 8
            bits |= UInt32(bytes[i + 2]) << 16
            bits |= UInt32(bytes[i + 3]) << 24
            return Float(bitPattern: bits)
        }
    }

    /// A binary PPM (P6, maxval 255) as raw pixel values in NCHW `[1, 3, H, W]`, RGB order.
    static func ppm(_ relative: String) throws -> Tensor {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
        var position = 0
        func token() -> String {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0a || bytes[position] == 0x0d || bytes[position] == 0x09 { position += 1 }
            if position < bytes.count, bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0a { position += 1 }
                return token()
            }
            let start = position
            while position < bytes.count, !(bytes[position] == 0x20 || bytes[position] == 0x0a || bytes[position] == 0x0d || bytes[position] == 0x09) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
        XCTAssertEqual(token(), "P6")
        let width = Int(token()) ?? 0, height = Int(token()) ?? 0
        XCTAssertEqual(token(), "255")
        position += 1
        let plane = width * height
        var values = [Float](repeating: 0, count: 3 * plane)
        for i in 0..<plane {
            for c in 0..<3 { values[c * plane + i] = Float(bytes[position + 3 * i + c]) }
        }
        return try Tensor(shape: [1, 3, height, width], floats: values)
    }

    /// Every backend, each forced in turn: `[]` is the reference backend alone.
    static let backendChoices: [(name: String, backends: [any Backend])] = [("reference", []), ("simd", [SIMDBackend()])]

    /// Runs `graph` (on `backends`, the reference backend by default) and returns output `name`'s floats.
    static func run(_ graph: Graph, _ inputs: [String: Tensor], output: String? = nil, backends: [any Backend] = []) throws -> [Float] {
        let plan = try ExecutionPlan(graph: graph, backends: backends)
        let outputs = try plan.run(inputs)
        let name = output ?? graph.outputs[0].name
        guard let tensor = outputs[name] else { throw FoveaError(.invalidArgument, "no output \(name)") }
        return try tensor.requireFloats()
    }

    static func softmax(_ logits: [Float]) -> [Float] {
        let maximum = logits.max() ?? 0
        let exps = logits.map { Double(exp($0 - maximum)) }
        let total = exps.reduce(0, +)
        return exps.map { Float($0 / total) }
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? .infinity
    }
}

import Foundation
import FoveaCore
@_spi(Internals) @testable import Fovea

/// Models and images made inside the tests.
enum TestImages {
    /// A tiny classifier built in code: `image` 1×3×16×16 → 3×3 conv (6
    /// channels, stride 2) → ReLU → global average pool → flatten → `scores` 1×6
    /// logits. Deterministic weights; runs in microseconds.
    static func tinyModel(labels: [String]? = nil) throws -> Model {
        var generator = SeededGenerator(seed: 11)
        let weights = (0..<(6 * 3 * 3 * 3)).map { _ in Float.random(in: -1...1, using: &generator) }
        let bias = (0..<6).map { _ in Float.random(in: -0.1...0.1, using: &generator) }
        let graph = Graph(
            name: "tiny",
            inputs: [ValueInfo(name: "image", dataType: .float32, dimensions: [.known(1), .known(3), .known(16), .known(16)])],
            outputs: [ValueInfo(name: "scores", dataType: .float32, dimensions: [.known(1), .known(6)])],
            nodes: [
                Node(name: "conv", op: .conv(ConvAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [1, 1, 1, 1])),
                     inputs: ["image", "w", "b"], outputs: ["c"]),
                Node(name: "relu", op: .relu, inputs: ["c"], outputs: ["r"]),
                Node(name: "pool", op: .globalAveragePool, inputs: ["r"], outputs: ["p"]),
                Node(name: "flatten", op: .flatten(axis: 1), inputs: ["p"], outputs: ["scores"]),
            ],
            initializers: ["w": try Tensor(shape: [6, 3, 3, 3], floats: weights), "b": try Tensor(shape: [6], floats: bias)])
        let model = try Model(graph: graph, configuration: ModelConfiguration(backends: ["reference"]))
        guard let labels else { return model }
        return try model.describing { $0.classLabels = ClassLabels(labels) }
    }

    /// A photo-like synthetic image: smooth gradients and a few blobs, so
    /// different crops and orientations give different scores.
    static func gradient(width: Int, height: Int, seed: Int = 0) throws -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8((x * 255) / Swift.max(1, width - 1))
                pixels[i + 1] = UInt8((y * 255) / Swift.max(1, height - 1))
                pixels[i + 2] = UInt8(((x * y + seed * 37) / 3) % 256)
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    /// `jpeg` with an APP1 EXIF segment holding only `Orientation = value`,
    /// inserted right after SOI. Big-endian ("MM") or little-endian ("II") TIFF.
    static func insertingEXIF(orientation value: UInt16, into jpeg: Data, littleEndian: Bool = false) -> Data {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } : (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0] + u32(0)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = UInt16(body.count + 2)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: segment)
        result.append(jpeg.dropFirst(2))
        return result
    }
}

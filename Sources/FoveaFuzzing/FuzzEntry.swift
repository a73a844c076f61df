import Foundation
@_spi(Internals) import Fovea
import FoveaTools
import FoveaCore
import FoveaCoreML
import FoveaImage
import FoveaONNX

/// What each fuzz target does with one input: parse it as a stranger's file
/// would be parsed, and go on as far as Fovea goes with a file it accepted.
///
/// An input may be refused with any error; it must never crash, hang, or
/// allocate past the caps set here. The fuzz executables (`Fuzz/`) call these
/// under libFuzzer; `FuzzRegressionTests` calls them on every committed input
/// that once crashed, and on the seed files.
public enum FuzzEntry: String, CaseIterable, Sendable {
    case onnx, coreML = "coreml", image, tensor

    /// Caps for one input: a fuzzed model or picture may declare anything.
    static let memoryLimit = MemoryLimit(bytes: 256 << 20)
    static let imageLimits = ImageDecodingLimits(maxPixelCount: 4_000_000)

    /// Runs one input through this target's parser (and planner, for models).
    /// Returns whether the input was accepted all the way, so that tests can
    /// check that the harness reaches past the parser on valid files.
    @discardableResult
    public func run(_ data: Data) -> Bool {
        switch self {
        case .onnx:
            guard let graph = try? ONNXLoader.load(data: data, fileName: "fuzz.onnx") else { return false }
            return Self.plan(graph)
        case .coreML:
            guard let model = try? CoreMLLoader.load(data: data, fileName: "fuzz.mlmodel") else { return false }
            return Self.plan(model.graph)
        case .image:
            _ = EXIFOrientation.read(from: data)
            // Colour matching on: embedded ICC profiles reach lcms2 too.
            guard let image = try? ImageDecoder.decode(data: data, limits: Self.imageLimits, colorMatching: .auto) else { return false }
            _ = image.oriented(.leftMirrored)
            return true
        case .tensor:
            let numpy = try? NumpyFile.decode(data)
            let proto = try? ONNXTensorFile.decode(data: data)
            return numpy != nil || proto != nil
        }
    }

    /// Optimizes and plans a loaded graph on the reference backend under a small memory cap.
    static func plan(_ graph: Graph) -> Bool {
        let configuration = ModelConfiguration(backends: ["reference"], threads: 1, memoryLimit: memoryLimit)
        return (try? Model(graph: graph, configuration: configuration).plan()) != nil
    }

    /// Runs each file once (the fuzz executables' mode without libFuzzer). Returns
    /// the number of files read.
    public func runFiles(_ paths: some Sequence<String>) throws -> Int {
        var count = 0
        for path in paths {
            run(try Data(contentsOf: URL(fileURLWithPath: path)))
            count += 1
        }
        return count
    }
}

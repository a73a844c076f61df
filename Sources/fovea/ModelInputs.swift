import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import FoveaCore
import FoveaONNX
import Foundation

/// Reading the inputs `run`, `parity` and `bench` feed a model.
enum ModelInputs {
    /// A tensor from a `.npy` or ONNX `.pb` file.
    static func tensor(at path: String) throws -> Tensor {
        try refuseSpecialFile(path)
        switch (path as NSString).pathExtension.lowercased() {
        case "npy": return try NumpyFile.read(contentsOf: path)
        case "pb": return try ONNXTensorFile.read(contentsOf: path).tensor
        default: throw ValidationError("\(path): tensor inputs must be .npy or .pb files")
        }
    }

    /// Inputs for every graph input, in order, from files: tensors (`.npy`,
    /// `.pb`), or for the model's image input a photo (`.jpg`, `.png`, `.heic`, `.avif`, `.webp`, `.ppm`),
    /// oriented, cropped, scaled and normalized as the model's description says
    /// (the same preprocessing as `fovea classify`).
    static func fromFiles(_ paths: [String], model: Model, limits: ImageDecodingLimits = .default) throws -> [String: Tensor] {
        let inputs = model.graph.inputs
        guard paths.count == inputs.count else {
            throw ValidationError("the model has \(inputs.count) input(s) (\(inputNames(model))); got \(paths.count) --input")
        }
        var feeds: [String: Tensor] = [:]
        for (input, path) in zip(inputs, paths) {
            try refuseSpecialFile(path)
            let ext = (path as NSString).pathExtension.lowercased()
            if ImageFiles.extensions.contains(ext) {
                guard model.modelDescription.imageInput?.name == input.name else {
                    throw ValidationError("input '\(input.name.terminalSafe)' (\(input.shapeDescription)) is not the model's image input; give a .npy or .pb tensor")
                }
                let image = try ImageRequestHandler(contentsOfFile: path, limits: limits).image
                feeds[input.name] = try ClassificationRequest(model: model).inputTensor(for: image)
            } else {
                feeds[input.name] = try tensor(at: path)
            }
        }
        return feeds
    }

    /// A device, FIFO or directory given as an input is named as such, whatever its name ends with.
    static func refuseSpecialFile(_ path: String) throws {
        if let kind = try? FileContents.specialKind(ofFileAt: path) {
            throw FoveaError(.io, "is \(kind), not a regular file; expected an input tensor (.npy, .pb) or a photo", location: .init(file: path))
        }
    }

    /// The graph inputs' names, for messages.
    static func inputNames(_ model: Model) -> String {
        model.graph.inputs.map(\.name.terminalSafe).joined(separator: ", ")
    }

    /// Seeded standard-normal inputs of the model's declared shapes (symbolic
    /// dimensions as 1; the first dimension `batch` when given), checked
    /// against the model's memory limit before any is made.
    static func random(for model: Model, seed: UInt64 = 0, batch: Int? = nil) throws -> [String: Tensor] {
        var generator = SeededGenerator(seed: seed)
        var shapes: [(name: String, shape: [Int])] = []
        var total = 0
        for input in model.graph.inputs {
            guard input.dataType == .float32, let dims = input.dimensions else {
                throw ValidationError("input '\(input.name.terminalSafe)' (\(input.dataType), \(input.shapeDescription)) needs a value; give it with --input")
            }
            var shape = dims.map { if case .known(let n) = $0 { return n } else { return 1 } }
            if let batch, !shape.isEmpty { shape[0] = batch }
            let type = TensorType(.float32, shape)
            let bytes = MemoryLimit.bytes(of: type)
            let location = FoveaError.Location(file: model.path)
            try FoveaError.at(location) {
                try model.configuration.memoryLimit.check(bytes, for: "random input '\(input.name)' (\(type))")
                let (sum, overflow) = total.addingReportingOverflow(bytes ?? Int.max)
                try model.configuration.memoryLimit.check(overflow ? nil : sum, for: "the random inputs together")
                total = sum
            }
            shapes.append((input.name, shape))
        }
        var feeds: [String: Tensor] = [:]
        for (name, shape) in shapes {
            let values = (0..<shape.elementCount).map { _ in generator.nextGaussian() }
            feeds[name] = try Tensor(shape: shape, floats: values)
        }
        return feeds
    }
}


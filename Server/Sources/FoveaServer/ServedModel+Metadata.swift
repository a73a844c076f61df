@_spi(Internals) import Fovea
import FoveaServerProtocol

extension ServedModel {
    /// The model's inputs and outputs in protocol terms, plus the BYTES photo input.
    static func metadata(name: String, version: String, model: Model, batchable: Bool, imageInputName: String?) throws -> ModelMetadata {
        let plan = try? model.plan()
        func shape(_ info: ValueInfo) -> [Int] {
            let dimensions = info.knownShape ?? plan?.valueTypes[info.name]?.shape
                ?? (info.dimensions ?? []).map { dimension in
                    if case .known(let n) = dimension { return n } else { return -1 }
                }
            guard batchable, !dimensions.isEmpty else { return dimensions }
            return [-1] + dimensions.dropFirst()
        }
        var inputs = model.graph.inputs.map { TensorMetadata(name: $0.name, datatype: InferenceDatatype($0.dataType), shape: shape($0)) }
        if let imageInputName {
            inputs.append(TensorMetadata(name: imageInputName, datatype: .bytes, shape: [-1]))
        }
        let outputs = model.graph.outputs.map { TensorMetadata(name: $0.name, datatype: InferenceDatatype($0.dataType), shape: shape($0)) }
        let platform = model.path.lowercased().hasSuffix(".mlmodel") ? "fovea_coreml" : "fovea_onnx"
        return ModelMetadata(name: name, versions: [version], platform: platform, inputs: inputs, outputs: outputs)
    }
}

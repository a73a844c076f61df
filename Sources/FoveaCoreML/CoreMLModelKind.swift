/// Why Fovea cannot run a model of another type than NeuralNetwork(Classifier).
enum CoreMLModelKind {
    /// A one-line description of a model type Fovea does not run, saying what it is and why.
    static func unsupportedReason(_ type: CoreML_Specification_Model.OneOf_Type?) -> String {
        guard let type else {
            return "the model has no type (none of neuralNetwork, neuralNetworkClassifier, pipeline, ...)"
        }
        switch type {
        case .mlProgram:
            return "this is an ML Program (mlProgram, the .mlpackage format of iOS 15 and later); Fovea runs only NeuralNetwork models (convert with coremltools to the neuralnetwork format, or export ONNX)"
        case .pipelineClassifier(let p): return pipelineReason("pipeline classifier", p.pipeline)
        case .pipelineRegressor(let p): return pipelineReason("pipeline regressor", p.pipeline)
        case .pipeline(let p): return pipelineReason("pipeline", p)
        case .visionFeaturePrint:
            return "this is Apple's VisionFeaturePrint feature extractor, whose weights ship inside Apple's operating systems, not in the model file; Fovea cannot run it"
        case .neuralNetworkRegressor:
            return "this is a Neural Network Regressor; Fovea runs NeuralNetwork and NeuralNetworkClassifier models"
        case .neuralNetwork, .neuralNetworkClassifier:
            return "internal error: a neural network was reported as unsupported"
        default:
            return "this is a \(name(of: type)) model, not a neural network; Fovea runs only NeuralNetwork and NeuralNetworkClassifier models"
        }
    }

    /// The model type as Core ML names it (`glmClassifier`, `treeEnsembleRegressor`, ...).
    static func name(of type: CoreML_Specification_Model.OneOf_Type) -> String {
        // The enum case name is the specification's field name.
        let text = String(describing: type)
        return String(text.prefix { $0 != "(" })
    }

    private static func pipelineReason(_ kind: String, _ pipeline: CoreML_Specification_Pipeline) -> String {
        let parts = pipeline.models.map { $0.type.map(name(of:)) ?? "?" }
        let usesFeaturePrint = pipeline.models.contains {
            if case .visionFeaturePrint = $0.type { return true }
            return false
        }
        var reason = "this is a \(kind) of \(parts.isEmpty ? "no models" : parts.joined(separator: " + "))"
        if usesFeaturePrint {
            reason += " (a Create ML image classifier: its VisionFeaturePrint feature extractor ships inside Apple's operating systems, not in the model file)"
        }
        return reason + "; Fovea runs only a single NeuralNetwork or NeuralNetworkClassifier model"
    }
}

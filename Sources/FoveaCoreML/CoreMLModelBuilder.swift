import FoveaCore

/// Turns a decoded NeuralNetwork(Classifier) model into a ``CoreMLModel``.
struct CoreMLModelBuilder {
    let model: CoreML_Specification_Model
    let network: CoreMLNetworkSpec
    let fileName: String

    func build() throws -> CoreMLModel {
        let description = model.description_p
        guard !description.input.isEmpty else {
            throw FoveaError(.invalidModel, "the model declares no inputs")
        }
        guard !network.layers.isEmpty else {
            throw FoveaError(.invalidModel, "the neural network has no layers")
        }
        let inputs = description.input.map(CoreMLFeatures.feature)
        let outputs = description.output.map(CoreMLFeatures.feature)
        let imageInputs = try CoreMLFeatures.imageInputs(inputs, preprocessing: network.preprocessing)

        let builder = CoreMLGraphBuilder()
        var graphInputs: [ValueInfo] = []
        for feature in inputs {
            let shape = try inputShape(feature, imageInputs: imageInputs)
            try builder.defineInput(feature.name, shape: shape)
            graphInputs.append(ValueInfo(name: feature.name, dataType: .float32, dimensions: shape.map { .known($0) }))
        }

        let translator = CoreMLLayerTranslator(builder: builder)
        var histogram: [String: Int] = [:]
        for (index, layer) in network.layers.enumerated() {
            let typeName = CoreMLLayerTranslator.typeName(of: layer)
            histogram[typeName, default: 0] += 1
            let name = layer.name.isEmpty ? "layer_\(index)" : layer.name
            try FoveaError.at(FoveaError.Location(node: name, opType: typeName)) {
                try translator.translate(layer)
            }
        }

        var graphOutputs: [ValueInfo] = []
        var classifier: CoreMLClassifier?
        if let spec = network.classifier {
            let info = try classifierInfo(spec, description: description, builder: builder)
            classifier = info
            graphOutputs.append(ValueInfo(name: info.graphOutputName, dataType: .float32, dimensions: [.known(1), .known(info.labels.count)]))
        } else {
            for feature in outputs {
                let shape = try FoveaError.at(FoveaError.Location(node: feature.name)) {
                    try builder.shape(of: feature.name)
                }
                graphOutputs.append(ValueInfo(name: feature.name, dataType: .float32, dimensions: shape.map { .known($0) }))
            }
            guard !graphOutputs.isEmpty else { throw FoveaError(.invalidModel, "the model declares no outputs") }
        }

        let metadata = CoreMLFeatures.metadata(description.metadata)
        let graph = Graph(name: fileName.split(separator: "/").last.map(String.init) ?? fileName, inputs: graphInputs, outputs: graphOutputs,
                          nodes: builder.nodes, initializers: builder.initializers,
                          metadata: graphMetadata(metadata))
        try graph.validateStructure()
        return CoreMLModel(graph: graph, modelType: network.type, specificationVersion: Int(model.specificationVersion),
                           metadata: metadata, inputs: inputs, outputs: outputs, imageInputs: imageInputs,
                           classifier: classifier, layerHistogram: histogram,
                           weightPrecision: CoreMLWeightPrecision.tally(network.layers))
    }

    /// The NCHW shape of a graph input: `[1, C, H, W]`.
    private func inputShape(_ feature: CoreMLFeature, imageInputs: [CoreMLImageInput]) throws -> [Int] {
        let location = FoveaError.Location(node: feature.name)
        switch feature.type {
        case .image:
            guard let image = imageInputs.first(where: { $0.name == feature.name }) else {
                throw FoveaError(.invalidModel, "image input has no image description", location: location)
            }
            return image.tensorShape
        case .multiArray(let shape, let dataType):
            guard dataType == "Float32" || dataType == "Double" || dataType == "Float16" else {
                throw FoveaError(.unsupported, "multi-array input of type \(dataType) is not supported; expected a float array", location: location)
            }
            guard shape.allSatisfy({ $0 >= 1 }) else {
                throw FoveaError(.invalidModel, "multi-array input shape \(shape) has a non-positive dimension", location: location)
            }
            if network.exactArrayMapping {
                // The declared shape is the blob's shape.
                switch shape.count {
                case 4: return shape
                case 3: return [1] + shape
                default:
                    throw FoveaError(.unsupported, "input shape \(shape) is rank \(shape.count); Fovea runs rank-4 NCHW blobs (rank 3 or 4 inputs)", location: location)
                }
            }
            // Rank-5 mapping: [C] or [C, H, W] (or [S, B, C, H, W] with S = B = 1).
            switch shape.count {
            case 1: return [1, shape[0], 1, 1]
            case 3: return [1] + shape
            case 5 where shape[0] == 1 && shape[1] == 1: return [1] + Array(shape[2...])
            default:
                throw FoveaError(.unsupported, "input shape \(shape) does not map to [Seq = 1, Batch = 1, C, H, W]", location: location)
            }
        default:
            throw FoveaError(.unsupported, "input of type \(feature.type) is not supported; Fovea feeds images and float multi-arrays", location: location)
        }
    }

    private func classifierInfo(_ spec: CoreML_Specification_NeuralNetworkClassifier, description: CoreML_Specification_ModelDescription,
                                builder: CoreMLGraphBuilder) throws -> CoreMLClassifier {
        let labels: [String]
        let integers: Bool
        switch spec.classLabels {
        case .stringClassLabels(let vector): labels = vector.vector; integers = false
        case .int64ClassLabels(let vector): labels = vector.vector.map { String($0) }; integers = true
        case nil: throw FoveaError(.invalidModel, "the classifier has no class labels (stringClassLabels or int64ClassLabels)")
        }
        guard !labels.isEmpty else { throw FoveaError(.invalidModel, "the classifier has an empty list of class labels") }
        // Without labelProbabilityLayerName, Core ML reads the last layer's output.
        let blob = spec.labelProbabilityLayerName.isEmpty ? (network.layers.last?.output.first ?? "") : spec.labelProbabilityLayerName
        let shape = try FoveaError.at(FoveaError.Location(node: blob)) { try builder.shape(of: blob) }
        guard shape.elementCount == labels.count, shape.first == 1 else {
            throw FoveaError(.shapeMismatch, "probability blob '\(blob)' is \(shape.shapeDescription) (\(shape.elementCount) values); expected one value per class label (\(labels.count))")
        }
        let probabilitiesName = description.predictedProbabilitiesName
        var outputName = probabilitiesName.isEmpty ? "\(blob)_probabilities" : probabilitiesName
        while (try? builder.shape(of: outputName)) != nil { outputName += "_" }
        builder.layerName = "\(blob)/classifier"
        try builder.add(.reshape(shape: [1, labels.count], allowZero: false), inputs: [blob], output: outputName)
        return CoreMLClassifier(labels: labels, labelsAreIntegers: integers, probabilitiesOutputName: probabilitiesName,
                                labelOutputName: description.predictedFeatureName, probabilityBlobName: blob, graphOutputName: outputName)
    }

    private func graphMetadata(_ metadata: CoreMLMetadata) -> ModelMetadata {
        var result = ModelMetadata()
        result.format = "Core ML"
        result.docString = metadata.shortDescription
        result.producerName = metadata.userDefined["com.github.apple.coremltools.version"] != nil ? "coremltools" : ""
        result.producerVersion = metadata.userDefined["com.github.apple.coremltools.version"] ?? ""
        result.properties = metadata.userDefined
        return result
    }
}


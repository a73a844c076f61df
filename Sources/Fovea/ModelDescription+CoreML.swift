import FoveaCoreML

extension ModelDescription {
    /// What a Core ML model says about itself: the image input's size, channel
    /// order and scaler (`p × channelScale + bias[c]`, Core ML's order), the
    /// class labels, and its output names. The graph's scores are already
    /// probabilities. Crops follow Vision's default (no crop fraction).
    ///
    /// - Throws: `.unsupported` for a mean-image preprocessing, which a
    ///   per-channel normalization cannot express.
    @_spi(Internals) public init(coreML model: CoreMLModel) throws {
        self.init(graph: model.graph)
        if let image = model.imageInput {
            guard image.meanImage == nil else {
                throw FoveaError(.unsupported, "the image input '\(image.name)' subtracts a mean image (NeuralNetworkMeanImage); the request API applies per-channel scale and bias only — feed preprocessed tensors with `fovea run` instead")
            }
            let order: ChannelOrder
            switch image.colorSpace {
            case .rgb: order = .rgb
            case .bgr: order = .bgr
            case .grayscale: order = .gray
            }
            let channels = order.channelCount
            let normalization = try PixelNormalization(scale: [Float](repeating: image.channelScale, count: channels),
                                                       bias: image.channelBiases, channelOrder: order)
            imageInput = ImageInputDescription(name: image.name, width: image.width, height: image.height,
                                               normalization: normalization, cropFraction: nil)
        }
        if let classifier = model.classifier {
            classLabels = ClassLabels(classifier.labels)
            scoresOutput = classifier.graphOutputName
            outputKind = .probabilities
            classifierOutputNames = ClassifierOutputNames(probabilities: classifier.probabilitiesOutputName,
                                                          label: classifier.labelOutputName)
        }
    }
}

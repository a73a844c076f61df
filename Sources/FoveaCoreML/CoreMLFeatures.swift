import FoveaCore

/// Reads the model description: features, image preprocessing, metadata.
enum CoreMLFeatures {
    static func feature(_ d: CoreML_Specification_FeatureDescription) -> CoreMLFeature {
        CoreMLFeature(name: d.name, shortDescription: d.shortDescription, type: type(d.type), isOptional: d.type.isOptional)
    }

    static func type(_ t: CoreML_Specification_FeatureType) -> CoreMLFeatureType {
        switch t.type {
        case .int64Type: return .int64
        case .doubleType: return .double
        case .stringType: return .string
        case .imageType(let image):
            let colorSpace: CoreMLColorSpace
            switch image.colorSpace {
            case .bgr: colorSpace = .bgr
            case .grayscale, .grayscaleFloat16: colorSpace = .grayscale
            default: colorSpace = .rgb
            }
            return .image(width: Int(clamping: image.width), height: Int(clamping: image.height), colorSpace: colorSpace)
        case .multiArrayType(let array):
            let dataType: String
            switch array.dataType {
            case .float32: dataType = "Float32"
            case .double: dataType = "Double"
            case .float16: dataType = "Float16"
            case .int32: dataType = "Int32"
            case .int8: dataType = "Int8"
            default: dataType = "Unknown"
            }
            return .multiArray(shape: array.shape.map { Int(clamping: $0) }, dataType: dataType)
        case .dictionaryType(let dictionary):
            if case .int64KeyType = dictionary.keyType { return .dictionary(keyType: "Int64") }
            return .dictionary(keyType: "String")
        case .sequenceType: return .sequence
        case .stateType: return .state
        case nil: return .unknown
        }
    }

    /// The image inputs with their scaler and mean image. A preprocessing entry
    /// with no feature name applies to the first input (Core ML's rule).
    static func imageInputs(_ inputs: [CoreMLFeature], preprocessing: [CoreML_Specification_NeuralNetworkPreprocessing]) throws -> [CoreMLImageInput] {
        var result: [CoreMLImageInput] = []
        for feature in inputs {
            guard case .image(let width, let height, let colorSpace) = feature.type else { continue }
            let location = FoveaError.Location(node: feature.name)
            guard width >= 1, height >= 1, width <= 1 << 16, height <= 1 << 16 else {
                throw FoveaError(.invalidModel, "image input is \(width)×\(height); expected a positive size", location: location)
            }
            var image = CoreMLImageInput(name: feature.name, width: width, height: height, colorSpace: colorSpace,
                                         channelScale: 1, channelBiases: [Float](repeating: 0, count: colorSpace.channelCount), meanImage: nil)
            for entry in preprocessing where entry.featureName == feature.name || (entry.featureName.isEmpty && feature.name == inputs.first?.name) {
                switch entry.preprocessor {
                case .scaler(let scaler):
                    image.channelScale = scaler.channelScale
                    switch colorSpace {
                    case .rgb: image.channelBiases = [scaler.redBias, scaler.greenBias, scaler.blueBias]
                    case .bgr: image.channelBiases = [scaler.blueBias, scaler.greenBias, scaler.redBias]
                    case .grayscale: image.channelBiases = [scaler.grayBias]
                    }
                case .meanImage(let mean):
                    let expected = colorSpace.channelCount * height * width
                    guard mean.meanImage.count == expected else {
                        throw FoveaError(.invalidModel, "mean image has \(mean.meanImage.count) values; expected \(expected) (C×H×W)", location: location)
                    }
                    image.meanImage = mean.meanImage
                case nil:
                    break
                }
            }
            result.append(image)
        }
        return result
    }

    static func metadata(_ m: CoreML_Specification_Metadata) -> CoreMLMetadata {
        var result = CoreMLMetadata()
        result.shortDescription = m.shortDescription
        result.author = m.author
        result.license = m.license
        result.versionString = m.versionString
        result.userDefined = m.userDefined
        return result
    }
}

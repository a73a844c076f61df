import Foundation
import FoveaCore

/// The preprocessing and labels of a model that does not carry them (ONNX),
/// read from a JSON file next to the model: `<name>.fovea.json` for
/// `<name>.onnx`, or from the model's `metadata_props` entry `fovea`.
///
/// Every field is optional; what is given replaces what Fovea inferred:
///
/// ```json
/// {
///   "input": "data",
///   "input_size": [224, 224],
///   "channel_order": "rgb",
///   "mean": [0.485, 0.456, 0.406],
///   "std": [0.229, 0.224, 0.225],
///   "crop_fraction": 0.875,
///   "labels": "labels1000.txt",
///   "output": "logits",
///   "output_kind": "logits"
/// }
/// ```
///
/// `input_size` is `[width, height]`; `channel_order` is `rgb`, `bgr` or `gray`;
/// `mean`/`std` are in the 0…1 pixel scale, or give `scale`/`bias` instead
/// (`x = p × scale + bias` on 0…255 values, as Core ML); `labels` is a labels
/// file (relative to the sidecar's folder), `"imagenet"` for the built-in
/// ``ClassLabels/imageNet1k``, or an array of names; `output` names the scores
/// output; `output_kind` is `logits` or `probabilities`. Any other key is an
/// error (``knownKeys`` lists the accepted ones).
package struct ModelSidecar: Sendable, Equatable, Decodable {
    /// The graph input that takes the image (`input`); `nil` keeps the one Fovea inferred.
    public var input: String?
    /// The image size as `[width, height]` in pixels (`input_size`).
    public var inputSize: [Int]?
    /// `rgb`, `bgr` or `gray` (`channel_order`).
    public var channelOrder: String?
    /// Per-channel mean in the 0…1 pixel scale (`mean`), with ``std``.
    public var mean: [Float]?
    /// Per-channel standard deviation in the 0…1 pixel scale (`std`), with ``mean``.
    public var std: [Float]?
    /// Per-channel scale applied to 0…255 values (`scale`), as Core ML's image scaler; an alternative to ``mean``/``std``.
    public var scale: [Float]?
    /// Per-channel bias added after ``scale`` (`bias`).
    public var bias: [Float]?
    /// The central fraction of the scaled image a center crop keeps, 0 < f ≤ 1 (`crop_fraction`; 0.875 for ImageNet's 224 of 256).
    public var cropFraction: Double?
    /// A labels file path, `imagenet` for ``ClassLabels/imageNet1k``, or the labels themselves.
    public var labels: Labels?
    /// The output holding the class scores (`output`); `nil` keeps the one Fovea inferred.
    public var output: String?
    /// `logits` or `probabilities` (`output_kind`): whether a softmax is still to be applied; any other value is an error.
    public var outputKind: String?
    /// Where relative paths (the labels file) are resolved.
    public var baseDirectory: String = "."

    /// A labels file or an inline list.
    public enum Labels: Sendable, Equatable, Decodable {
        /// A labels file, relative to the sidecar's folder, or `imagenet` for
        /// the built-in ``ClassLabels/imageNet1k`` (see ``ClassLabels/init(namedOrAt:relativeTo:)``).
        case file(String)
        /// The labels themselves, in class order.
        case names([String])

        /// A JSON string (`.file`) or an array of strings (`.names`).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let path = try? container.decode(String.self) {
                self = .file(path)
            } else {
                self = .names(try container.decode([String].self))
            }
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case input, inputSize = "input_size", channelOrder = "channel_order", mean, std, scale, bias
        case cropFraction = "crop_fraction", labels, output, outputKind = "output_kind"
    }

    /// The keys a sidecar may hold, in the README's order; any other key is an error.
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Any key of the JSON object, to find the ones Fovea does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the JSON object. A key Fovea does not know (a typo such as
    /// `"label"`) is an error that names it, the closest known key, and every
    /// known key: a misspelled key must not be ignored silently.
    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        let unknown = keys.filter { CodingKeys(rawValue: $0) == nil }.sorted()
        if !unknown.isEmpty {
            throw FoveaError(.invalidArgument, ModelSidecar.unknownKeysMessage(unknown))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decodeIfPresent(String.self, forKey: .input)
        inputSize = try container.decodeIfPresent([Int].self, forKey: .inputSize)
        channelOrder = try container.decodeIfPresent(String.self, forKey: .channelOrder)
        mean = try container.decodeIfPresent([Float].self, forKey: .mean)
        std = try container.decodeIfPresent([Float].self, forKey: .std)
        scale = try container.decodeIfPresent([Float].self, forKey: .scale)
        bias = try container.decodeIfPresent([Float].self, forKey: .bias)
        cropFraction = try container.decodeIfPresent(Double.self, forKey: .cropFraction)
        labels = try container.decodeIfPresent(Labels.self, forKey: .labels)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        outputKind = try container.decodeIfPresent(String.self, forKey: .outputKind)
    }

    /// `unknown key 'label' (did you mean 'labels'?); known keys: input, ...`;
    /// several unknown keys are all named.
    static func unknownKeysMessage(_ keys: [String]) -> String {
        let known = knownKeys
        let named = keys.map { key in
            let closest = known.map { (name: $0, distance: editDistance(key.lowercased(), $0)) }.min { $0.distance < $1.distance }
            guard let closest, closest.distance <= max(2, closest.name.count / 3) else { return "'\(key)'" }
            return "'\(key)' (did you mean '\(closest.name)'?)"
        }
        return "unknown key\(keys.count == 1 ? "" : "s") \(named.joined(separator: ", ")); known keys: \(known.joined(separator: ", "))"
    }

    /// Levenshtein distance, for the "did you mean" hint.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The sidecar path for a model file: `dir/name.onnx` → `dir/name.fovea.json`.
    public static func path(forModelAt modelPath: String) -> String {
        ((modelPath as NSString).deletingPathExtension as String) + ".fovea.json"
    }

    /// Reads a sidecar file. Throws `.io` if it cannot be read and
    /// `.invalidArgument` (naming the file) if it is not valid sidecar JSON.
    public init(contentsOf path: String) throws {
        let data = try FileContents.read(path, expected: "a sidecar file (JSON)")
        let sidecar = try FoveaError.at(.init(file: path)) {
            try ModelSidecar(json: data, baseDirectory: (path as NSString).deletingLastPathComponent)
        }
        self = sidecar
    }

    /// Parses sidecar JSON; relative label paths are resolved against `baseDirectory`.
    public init(json: Data, baseDirectory: String = ".") throws {
        do {
            self = try JSONDecoder().decode(ModelSidecar.self, from: json)
        } catch let error as DecodingError {
            throw FoveaError(.invalidArgument, "invalid sidecar JSON: \(ModelSidecar.describe(error))")
        } catch let error as FoveaError {
            throw FoveaError(error.kind, "invalid sidecar: \(error.message)", location: error.location)
        } catch {
            throw FoveaError(.invalidArgument, "invalid sidecar JSON: \(error.localizedDescription)")
        }
        self.baseDirectory = baseDirectory.isEmpty ? "." : baseDirectory
    }

    /// Applies the given fields to `description`.
    ///
    /// Throws `.invalidArgument` for a bad value (unknown channel order, a
    /// size that is not two positive numbers, mean/std mixed with scale/bias, an
    /// unreadable labels file) and when there is no image input to describe.
    public func apply(to description: inout ModelDescription) throws {
        let touchesImage = input != nil || inputSize != nil || channelOrder != nil || mean != nil || std != nil
            || scale != nil || bias != nil || cropFraction != nil
        if touchesImage {
            var image = try startingImageInput(description)
            if let size = inputSize {
                guard size.count == 2, size.allSatisfy({ $0 > 0 }) else {
                    throw FoveaError(.invalidArgument, "\"input_size\" must be [width, height] with positive numbers, found \(size)")
                }
                image.width = size[0]
                image.height = size[1]
            }
            image.normalization = try normalization(replacing: image.normalization)
            if let cropFraction {
                guard cropFraction > 0, cropFraction <= 1 else {
                    throw FoveaError(.invalidArgument, "\"crop_fraction\" \(cropFraction) must be in (0, 1]")
                }
                image.cropFraction = cropFraction
            }
            description.imageInput = image
        }
        switch labels {
        case .file(let path)?:
            description.classLabels = try ClassLabels(namedOrAt: path, relativeTo: baseDirectory)
        case .names(let names)?:
            description.classLabels = ClassLabels(names)
        case nil:
            break
        }
        if let output { description.scoresOutput = output }
        if let outputKind {
            guard let kind = ClassifierOutputKind(rawValue: outputKind) else {
                throw FoveaError(.invalidArgument, "\"output_kind\" is '\(outputKind)'; expected logits or probabilities")
            }
            description.outputKind = kind
        }
    }

    /// The image input this sidecar edits: the one it names, or the inferred one.
    private func startingImageInput(_ description: ModelDescription) throws -> ImageInputDescription {
        if let input {
            if let current = description.imageInput, current.name == input { return current }
            guard description.inputs.contains(where: { $0.name == input }) else {
                throw FoveaError(.invalidArgument, "\"input\" names '\(input)', which is not a model input (inputs: \(description.inputs.map(\.name).joined(separator: ", ")))")
            }
            guard let size = inputSize, size.count == 2 else {
                throw FoveaError(.invalidArgument, "input '\(input)' has no declared image size; give \"input_size\": [width, height]")
            }
            return ImageInputDescription(name: input, width: size[0], height: size[1], normalization: .imageNet)
        }
        guard let current = description.imageInput else {
            throw FoveaError(.invalidArgument, "the model has no N×3×H×W image input; name it with \"input\" and give \"input_size\"")
        }
        return current
    }

    private func normalization(replacing current: PixelNormalization) throws -> PixelNormalization {
        var order = current.channelOrder
        if let channelOrder {
            guard let parsed = ChannelOrder(rawValue: channelOrder.lowercased()) else {
                throw FoveaError(.invalidArgument, "\"channel_order\" is '\(channelOrder)'; expected rgb, bgr or gray")
            }
            order = parsed
        }
        let usesMeanStd = mean != nil || std != nil
        let usesScaleBias = scale != nil || bias != nil
        if usesMeanStd && usesScaleBias {
            throw FoveaError(.invalidArgument, "give either \"mean\"/\"std\" or \"scale\"/\"bias\", not both")
        }
        let channels = order.channelCount
        if usesScaleBias {
            return try PixelNormalization(scale: scale ?? [1 / 255], bias: bias ?? Array(repeating: 0, count: channels), channelOrder: order)
        }
        if usesMeanStd || order != current.channelOrder {
            let keep = order.channelCount == current.channelOrder.channelCount
            let mean = self.mean ?? (keep ? current.mean : Array(repeating: 0, count: channels))
            let std = self.std ?? (keep ? current.std : Array(repeating: 1, count: channels))
            return try PixelNormalization(mean: mean, std: std, channelOrder: order)
        }
        return current
    }

    /// `key 'crop_fraction': expected Double` rather than Foundation's long story.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : "at '\(keys.joined(separator: "."))': "
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context))expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context))expected \(type), found null"
        case .keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
        case .dataCorrupted(let context): return "\(path(context))\(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

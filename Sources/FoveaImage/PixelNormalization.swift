import FoveaCore

/// The order of colour channels a model expects along its channel axis.
public enum ChannelOrder: String, Sendable, Equatable, CaseIterable {
    /// Red, green, blue (PyTorch and most ONNX models).
    case rgb
    /// Blue, green, red (Caffe-trained models).
    case bgr
    /// One luminance channel, `L = 0.299 R + 0.587 G + 0.114 B` (Pillow's `convert("L")`).
    case gray

    /// Channels along the tensor's channel axis: 3, or 1 for `.gray`.
    public var channelCount: Int { self == .gray ? 1 : 3 }
}

/// How a model wants 8-bit pixels turned into floats:
/// `x = (p / 255 - mean[c]) / std[c]` for tensor channel `c`, or equivalently
/// `x = p × scale[c] + bias[c]` (Core ML's image scaler form; see
/// ``init(scale:bias:channelOrder:)``).
///
/// `mean` and `std` are in the 0…1 pixel scale and are listed in the tensor's
/// channel order (so for `.bgr`, `mean[0]` applies to blue). They are checked
/// (3 finite values each, no zero `std`) by the throwing initializer and again
/// by ``tensor(from:)``, since they are mutable.
public struct PixelNormalization: Sendable, Equatable {
    /// Per tensor channel, in the 0…1 scale.
    public var mean: [Float]
    /// Per tensor channel, in the 0…1 scale; never zero.
    public var std: [Float]
    /// Which colour goes to which tensor channel.
    public var channelOrder: ChannelOrder

    /// Throws `.invalidArgument` unless `mean` and `std` have one finite value per
    /// channel (3, or 1 for `.gray`) and no `std` is zero.
    public init(mean: [Float], std: [Float], channelOrder: ChannelOrder = .rgb) throws {
        self.init(uncheckedMean: mean, std: std, channelOrder: channelOrder)
        try validate()
    }

    /// The Core ML form `x = p × scale[c] + bias[c]` on 0…255 pixel values
    /// (`NeuralNetworkImageScaler`: one `scale`, or one per channel, and per-channel biases).
    /// Stored as `std = 1 / (255 scale)`, `mean = -bias / (255 scale)`.
    ///
    /// Throws `.invalidArgument` unless the values are finite, `scale` is non-zero,
    /// and there is one value (or, for `scale`, a single shared value) per channel.
    public init(scale: [Float], bias: [Float], channelOrder: ChannelOrder = .rgb) throws {
        let channels = channelOrder.channelCount
        let scales = scale.count == 1 ? Array(repeating: scale[0], count: channels) : scale
        guard scales.count == channels, bias.count == channels else {
            throw FoveaError(.invalidArgument, "pixel scale/bias needs \(channels) scale(s) and \(channels) bias(es), found \(scale.count) and \(bias.count)")
        }
        guard scales.allSatisfy({ $0.isFinite && $0 != 0 }), bias.allSatisfy(\.isFinite) else {
            throw FoveaError(.invalidArgument, "pixel scale \(scale) / bias \(bias) must be finite, with scale non-zero")
        }
        let std = scales.map { Float(1 / (255 * Double($0))) }
        let mean = zip(scales, bias).map { Float(-Double($1) / (255 * Double($0))) }
        self.init(uncheckedMean: mean, std: std, channelOrder: channelOrder)
        try validate()
    }

    /// `x = p × scale[c] + bias[c]`: the multiplier of 0…255 pixel values, per channel.
    public var scale: [Float] { std.map { Float(1 / (255 * Double($0))) } }
    /// `x = p × scale[c] + bias[c]`: the offset, per channel.
    public var bias: [Float] { zip(mean, std).map { Float(-Double($0) / Double($1)) } }

    private init(uncheckedMean mean: [Float], std: [Float], channelOrder: ChannelOrder) {
        self.mean = mean
        self.std = std
        self.channelOrder = channelOrder
    }

    /// torchvision's ImageNet statistics, RGB: mean 0.485, 0.456, 0.406; std 0.229, 0.224, 0.225.
    public static let imageNet = PixelNormalization(
        uncheckedMean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], channelOrder: .rgb)

    /// `x = p / 255`, RGB.
    public static let unitRange = PixelNormalization(uncheckedMean: [0, 0, 0], std: [1, 1, 1], channelOrder: .rgb)

    /// `x = p / 255`, one gray channel.
    public static let unitGray = PixelNormalization(uncheckedMean: [0], std: [1], channelOrder: .gray)

    /// Throws `.invalidArgument` unless the statistics are usable.
    public func validate() throws {
        let channels = channelOrder.channelCount
        guard mean.count == channels, std.count == channels else {
            throw FoveaError(.invalidArgument, "pixel normalization (\(channelOrder.rawValue)) needs \(channels) means and \(channels) stds, found \(mean.count) and \(std.count)")
        }
        guard mean.allSatisfy(\.isFinite), std.allSatisfy({ $0.isFinite && $0 != 0 }) else {
            throw FoveaError(.invalidArgument, "pixel normalization mean \(mean) / std \(std) must be finite, with std non-zero")
        }
    }

    /// An NCHW float32 tensor `[N, C, H, W]` from `N` images of the same size
    /// (`C` = 3, or 1 for `.gray`).
    ///
    /// Throws `.invalidArgument` for an empty list or unusable statistics, and
    /// `.shapeMismatch` when the images differ in size.
    public func tensor(from images: [RGBImage]) throws -> Tensor {
        try validate()
        guard let first = images.first else {
            throw FoveaError(.invalidArgument, "no images to convert to a tensor")
        }
        let (width, height) = (first.width, first.height)
        for (index, image) in images.enumerated() where image.width != width || image.height != height {
            throw FoveaError(.shapeMismatch, "image \(index) is \(image.width)×\(image.height); expected \(width)×\(height) like image 0")
        }
        // Each image as it is: a geometry that neither scales nor crops.
        let geometry = try CropAndScaleGeometry.fill(imageWidth: width, imageHeight: height, width: width, height: height)
        return try tensor(from: images, geometries: Array(repeating: geometry, count: images.count))
    }

    /// The normalized value of pixel value `pixel` in tensor channel `channel`
    /// (0…2); the statistics must have been validated.
    func value(of pixel: UInt8, channel: Int) -> Float {
        Float((Double(pixel) / 255 - Double(mean[channel])) / Double(std[channel]))
    }

    /// Pillow's ITU-R 601-2 luma in fixed point: `(19595 R + 38470 G + 7471 B + 0x8000) >> 16`.
    static func luminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (19595 * Int(red) + 38470 * Int(green) + 7471 * Int(blue) + 0x8000) >> 16)
    }
}

import FoveaCore

/// The order of colour channels a model expects along its channel axis.
public enum ChannelOrder: String, Sendable, Equatable, CaseIterable {
    /// Red, green, blue (PyTorch and most ONNX models).
    case rgb
    /// Blue, green, red (Caffe-trained models).
    case bgr
}

/// How a model wants 8-bit pixels turned into floats:
/// `x = (p / 255 - mean[c]) / std[c]` for tensor channel `c`.
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

    /// Throws `.invalidArgument` unless `mean` and `std` have 3 finite values each
    /// and no `std` is zero.
    public init(mean: [Float], std: [Float], channelOrder: ChannelOrder = .rgb) throws {
        self.init(uncheckedMean: mean, std: std, channelOrder: channelOrder)
        try validate()
    }

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

    /// Throws `.invalidArgument` unless the statistics are usable.
    public func validate() throws {
        guard mean.count == 3, std.count == 3 else {
            throw FoveaError(.invalidArgument, "pixel normalization needs 3 means and 3 stds, found \(mean.count) and \(std.count)")
        }
        guard mean.allSatisfy(\.isFinite), std.allSatisfy({ $0.isFinite && $0 != 0 }) else {
            throw FoveaError(.invalidArgument, "pixel normalization mean \(mean) / std \(std) must be finite, with std non-zero")
        }
    }

    /// An NCHW float32 tensor `[N, 3, H, W]` from `N` images of the same size.
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
        // 256 possible inputs per channel: a lookup table beats per-pixel arithmetic.
        let tables = (0..<3).map { channel in
            (0...255).map { value(of: UInt8($0), channel: channel) }
        }
        let plane = width * height
        var floats = [Float](repeating: 0, count: images.count * 3 * plane)
        floats.withUnsafeMutableBufferPointer { output in
            for (n, image) in images.enumerated() {
                image.pixels.withUnsafeBufferPointer { pixels in
                    for channel in 0..<3 {
                        let color = channelOrder == .rgb ? channel : 2 - channel
                        let table = tables[channel]
                        let base = (n * 3 + channel) * plane
                        for i in 0..<plane {
                            output[base + i] = table[Int(pixels[3 * i + color])]
                        }
                    }
                }
            }
        }
        return try Tensor(shape: [images.count, 3, height, width], floats: floats)
    }

    /// The normalized value of pixel value `pixel` in tensor channel `channel`
    /// (0…2); the statistics must have been validated.
    func value(of pixel: UInt8, channel: Int) -> Float {
        Float((Double(pixel) / 255 - Double(mean[channel])) / Double(std[channel]))
    }
}

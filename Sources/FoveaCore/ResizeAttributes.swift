/// The attributes of ``Op/resize(_:)``: ONNX Resize in nearest and linear modes.
public struct ResizeAttributes: Sendable, Equatable {
    /// How an output pixel picks input pixels.
    public enum Mode: String, Sendable, Equatable {
        /// The nearest input pixel, as ``ResizeAttributes/nearestRounding`` rounds.
        case nearest
        /// Linear along every resized axis (bilinear for images).
        case linear
    }

    /// How an output coordinate maps to an input coordinate (`scale` is output/input).
    public enum CoordinateTransformation: String, Sendable, Equatable, CaseIterable {
        /// `(x + 0.5) / scale - 0.5`.
        case halfPixel = "half_pixel"
        /// Like `halfPixel`, but 0 when the output axis has one element.
        case pytorchHalfPixel = "pytorch_half_pixel"
        /// `x * (input - 1) / (output - 1)`: the corners line up.
        case alignCorners = "align_corners"
        /// `x / scale`.
        case asymmetric
        /// `(x + 0.5) / scale`.
        case tfHalfPixelForNN = "tf_half_pixel_for_nn"
        /// `halfPixel`, shifted so that a fractional output length (input × scale
        /// rounded down) stays centred on the input (ONNX opset 19).
        case halfPixelSymmetric = "half_pixel_symmetric"
    }

    /// How `nearest` rounds a coordinate between two pixels.
    public enum NearestRounding: String, Sendable, Equatable, CaseIterable {
        /// Round to nearest, halves down.
        case roundPreferFloor = "round_prefer_floor"
        /// Round to nearest, halves up.
        case roundPreferCeil = "round_prefer_ceil"
        /// Round down.
        case floor
        /// Round up.
        case ceil
    }

    /// The interpolation: nearest or linear.
    public var mode: Mode
    /// How an output coordinate maps back to an input coordinate (ONNX `coordinate_transformation_mode`).
    public var coordinates: CoordinateTransformation
    /// How ``Mode/nearest`` rounds a fractional input coordinate (ONNX `nearest_mode`).
    public var nearestRounding: NearestRounding
    /// Output/input per axis (of `axes`, or of every axis when `axes` is `nil`);
    /// `nil` when `sizes` gives the output size.
    public var scales: [Float]?
    /// The output extent per axis (of `axes`, or of every axis); `nil` when `scales` is given.
    public var sizes: [Int]?
    /// The axes `scales` or `sizes` refer to (ONNX opset 18); `nil` for all.
    public var axes: [Int]?

    /// Creates resize attributes; give either `scales` or `sizes`. The defaults are ONNX's.
    public init(mode: Mode, coordinates: CoordinateTransformation = .halfPixel, nearestRounding: NearestRounding = .roundPreferFloor,
                scales: [Float]? = nil, sizes: [Int]? = nil, axes: [Int]? = nil) {
        self.mode = mode
        self.coordinates = coordinates
        self.nearestRounding = nearestRounding
        self.scales = scales
        self.sizes = sizes
        self.axes = axes
    }

    /// The output shape and the scale of every axis for an input of `shape`.
    public func geometry(inputShape shape: [Int]) throws -> (outputShape: [Int], scales: [Float]) {
        let given = scales?.count ?? sizes?.count ?? 0
        guard (scales == nil) != (sizes == nil) else {
            throw FoveaError(.invalidAttribute, "Resize needs exactly one of 'scales' and 'sizes'")
        }
        let axisList = try axes.map { list in try list.map { try normalizedAxis($0, rank: shape.count) } } ?? Array(shape.indices)
        guard Set(axisList).count == axisList.count, given == axisList.count else {
            let what = scales != nil ? "scales" : "sizes"
            throw FoveaError(.shapeMismatch, "'\(what)' has \(given) values; expected one per \(axes == nil ? "axis of X (\(shape.shapeDescription))" : "axis in 'axes' \(axes!)")")
        }
        var output = shape
        var factors = [Float](repeating: 1, count: shape.count)
        for (i, axis) in axisList.enumerated() {
            if let scales {
                guard scales[i] > 0, scales[i].isFinite else {
                    throw FoveaError(.invalidAttribute, "'scales' \(scales) has a value that is not a positive number")
                }
                let extent = (Double(shape[axis]) * Double(scales[i])).rounded(.down)
                guard extent <= Double(Int32.max) else { throw FoveaError(.invalidAttribute, "'scales' \(scales) makes X (\(shape.shapeDescription)) too large") }
                output[axis] = Int(extent)
                factors[axis] = scales[i]
            } else if let sizes {
                guard sizes[i] >= 0, sizes[i] <= Int(Int32.max) else {
                    throw FoveaError(.invalidAttribute, "'sizes' \(sizes) has a value out of range")
                }
                output[axis] = sizes[i]
                factors[axis] = shape[axis] > 0 ? Float(sizes[i]) / Float(shape[axis]) : 1
            }
        }
        for axis in shape.indices where shape[axis] == 0 && output[axis] > 0 {
            throw FoveaError(.shapeMismatch, "X is \(shape.shapeDescription); an empty axis \(axis) cannot be resized to \(output[axis])")
        }
        return (try Op.boundedShape(output, scales != nil ? "'scales' \(scales!)" : "'sizes' \(sizes!)"), factors)
    }
}

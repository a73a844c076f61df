/// What a reduction computes over the elements it combines.
public enum Reduction: String, Sendable, Equatable, CaseIterable {
    /// The arithmetic mean (`ReduceMean`).
    case mean
    /// The sum (`ReduceSum`).
    case sum
    /// The largest element (`ReduceMax`); NaN if any is NaN.
    case max
    /// The smallest element (`ReduceMin`); NaN if any is NaN.
    case min
    /// The Euclidean norm `sqrt(Σ x²)` (`ReduceL2`).
    case l2
    /// `Σ x²` (`ReduceSumSquare`).
    case sumSquare

    /// The ONNX operator name.
    public var typeName: String {
        switch self {
        case .mean: return "ReduceMean"
        case .sum: return "ReduceSum"
        case .max: return "ReduceMax"
        case .min: return "ReduceMin"
        case .l2: return "ReduceL2"
        case .sumSquare: return "ReduceSumSquare"
        }
    }
}

/// The attributes of ``Op/reduce(_:)`` in canonical form, whichever opset the
/// model used (axes as an attribute, or as an input from opset 13/18;
/// `noop_with_empty_axes`).
public struct ReduceAttributes: Sendable, Equatable {
    /// The reduction applied along ``axes``: sum, mean, max, ...
    public var reduction: Reduction
    /// The axes to reduce (negative ones count from the end); `nil` reduces
    /// every axis. `[]` reduces none: each output element is the reduction of
    /// the one input element at its place (ONNX `noop_with_empty_axes`).
    public var axes: [Int]?
    /// Keep each reduced axis as a dimension of size 1.
    public var keepDims: Bool

    /// Creates the attributes of a reduction over `axes` (`nil` for every axis).
    public init(_ reduction: Reduction, axes: [Int]?, keepDims: Bool = true) {
        self.reduction = reduction
        self.axes = axes
        self.keepDims = keepDims
    }
}

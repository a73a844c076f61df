/// The sliding-window geometry of a convolution or pooling over `k` spatial
/// axes: output sizes and the padding actually applied, with ONNX's rules.
///
/// Every backend that runs Conv, MaxPool or AveragePool starts from this, so
/// they all agree on output sizes and pads:
///
/// - `auto_pad` NOTSET: the explicit pads; `out = floor((in + pads - dk) / stride) + 1`,
///   where `dk = (kernel - 1) * dilation + 1` is the dilated kernel extent.
/// - VALID: no padding, same formula.
/// - SAME_UPPER / SAME_LOWER: `out = ceil(in / stride)`, total padding
///   `max(0, (out - 1) * stride + dk - in)`, split with the odd pixel at the
///   end (SAME_UPPER) or at the beginning (SAME_LOWER).
/// - `ceilMode` (pooling, NOTSET or VALID): the division rounds up, but a last
///   window that would start inside the end padding is dropped, as PyTorch and
///   onnxruntime do. Such a last window may then overhang the end padding.
///
/// ```swift
/// let g = try SpatialGeometry(inputSize: [224, 224], kernelShape: [3, 3],
///                             strides: [2, 2], pads: [0, 0, 0, 0])
/// g.outputSize   // [111, 111]
/// ```
public struct SpatialGeometry: Sendable, Equatable {
    /// Input extent per spatial axis.
    public let inputSize: [Int]
    /// Kernel extent per spatial axis, before dilation.
    public let kernelShape: [Int]
    /// Step between window positions per spatial axis.
    public let strides: [Int]
    /// Spacing between kernel taps per spatial axis (1 is dense).
    public let dilations: [Int]
    /// Padding applied before each spatial axis, after resolving `auto_pad`.
    public let padsBegin: [Int]
    /// Padding applied after each spatial axis, after resolving `auto_pad`.
    /// With `ceilMode` the last window may reach beyond it.
    public let padsEnd: [Int]
    /// Output extent per spatial axis (each ≥ 1).
    public let outputSize: [Int]

    /// The number of spatial axes.
    public var rank: Int { inputSize.count }

    /// The dilated kernel extent on `axis`: `(kernel - 1) * dilation + 1`.
    public func dilatedKernel(_ axis: Int) -> Int {
        (kernelShape[axis] - 1) * dilations[axis] + 1
    }

    /// - Parameters:
    ///   - inputSize: the input's spatial extents (`H, W` of NCHW).
    ///   - kernelShape: one extent ≥ 1 per spatial axis.
    ///   - strides, dilations: one value ≥ 1 per axis; empty means all 1.
    ///   - pads: `[begin_0, ..., begin_k-1, end_0, ..., end_k-1]`, each ≥ 0;
    ///     empty means all 0. Ignored unless `autoPad` is `.notSet`.
    ///   - ceilMode: round the output size up (pooling only).
    /// - Throws: `.invalidAttribute` naming the attribute whose length or value
    ///   is wrong; `.shapeMismatch` when the (padded) input is smaller than the
    ///   dilated kernel.
    public init(inputSize: [Int], kernelShape: [Int], strides: [Int] = [], dilations: [Int] = [],
                pads: [Int] = [], autoPad: AutoPad = .notSet, ceilMode: Bool = false) throws {
        let rank = inputSize.count
        let strides = strides.isEmpty ? [Int](repeating: 1, count: rank) : strides
        let dilations = dilations.isEmpty ? [Int](repeating: 1, count: rank) : dilations
        let pads = pads.isEmpty ? [Int](repeating: 0, count: 2 * rank) : pads
        try Self.check("kernel_shape", kernelShape, count: rank, minimum: 1)
        try Self.check("strides", strides, count: rank, minimum: 1)
        try Self.check("dilations", dilations, count: rank, minimum: 1)
        try Self.check("pads", pads, count: 2 * rank, minimum: 0)
        guard inputSize.allSatisfy({ $0 >= 1 && $0 <= Self.attributeLimit }) else {
            throw FoveaError(.shapeMismatch, "spatial size \(inputSize.shapeDescription) has an empty or oversized axis")
        }

        var begin = [Int](repeating: 0, count: rank)
        var end = [Int](repeating: 0, count: rank)
        var output = [Int](repeating: 0, count: rank)
        for axis in 0..<rank {
            let size = inputSize[axis], stride = strides[axis]
            let dilatedKernel = (kernelShape[axis] - 1) * dilations[axis] + 1
            switch autoPad {
            case .sameUpper, .sameLower:
                output[axis] = (size + stride - 1) / stride
                let total = Swift.max(0, (output[axis] - 1) * stride + dilatedKernel - size)
                begin[axis] = autoPad == .sameUpper ? total / 2 : (total + 1) / 2
                end[axis] = total - begin[axis]
            case .notSet, .valid:
                if autoPad == .notSet {
                    begin[axis] = pads[axis]
                    end[axis] = pads[rank + axis]
                }
                let span = size + begin[axis] + end[axis] - dilatedKernel
                guard span >= 0 else {
                    throw FoveaError(.shapeMismatch, "spatial axis \(axis) has size \(size) (\(size + begin[axis] + end[axis]) padded), smaller than the dilated kernel \(dilatedKernel)")
                }
                output[axis] = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1
                // A window must start inside the input or the begin padding.
                if ceilMode, (output[axis] - 1) * stride >= size + begin[axis] {
                    output[axis] -= 1
                }
            }
        }
        self.inputSize = inputSize
        self.kernelShape = kernelShape
        self.strides = strides
        self.dilations = dilations
        self.padsBegin = begin
        self.padsEnd = end
        self.outputSize = output
    }

    /// The geometry of a convolution over `inputSize`.
    ///
    /// - Parameter weightShape: W's shape (`M×C/group×k...`); its spatial
    ///   extents are the kernel when `a.kernelShape` is empty (ONNX lets a
    ///   model omit `kernel_shape`).
    public init(inputSize: [Int], convolution a: ConvAttributes, weightShape: [Int] = []) throws {
        let kernel = a.kernelShape.isEmpty ? Array(weightShape.dropFirst(2)) : a.kernelShape
        try self.init(inputSize: inputSize, kernelShape: kernel, strides: a.strides,
                      dilations: a.dilations, pads: a.pads, autoPad: a.autoPad)
    }

    /// The geometry of a max or average pooling over `inputSize`.
    public init(inputSize: [Int], pooling a: PoolAttributes) throws {
        try self.init(inputSize: inputSize, kernelShape: a.kernelShape, strides: a.strides,
                      dilations: a.dilations, pads: a.pads, autoPad: a.autoPad, ceilMode: a.ceilMode)
    }

    /// The input coordinate that kernel tap `tap` reads for output `index` on
    /// `axis`; it lies outside `0 ..< inputSize[axis]` in the padding.
    public func inputCoordinate(axis: Int, output index: Int, tap: Int) -> Int {
        index * strides[axis] - padsBegin[axis] + tap * dilations[axis]
    }

    /// The outputs on `axis` for which kernel tap `tap` reads inside the input
    /// (not padding). Convolution loops use it to skip padding without a test
    /// per element.
    public func validOutputRange(axis: Int, tap: Int) -> Range<Int> {
        let offset = padsBegin[axis] - tap * dilations[axis]
        // index * stride - offset must lie in 0 ..< inputSize.
        let lower = Swift.max(0, Self.ceilDivide(offset, strides[axis]))
        let upper = Swift.min(outputSize[axis], Self.floorDivide(inputSize[axis] - 1 + offset, strides[axis]) + 1)
        return lower < upper ? lower..<upper : lower..<lower
    }

    /// The kernel taps of output `index` on `axis` that read inside the input.
    public func validTapRange(axis: Int, output index: Int) -> Range<Int> {
        let start = index * strides[axis] - padsBegin[axis]
        let dilation = dilations[axis]
        // start + tap * dilation must lie in 0 ..< inputSize.
        let lower = Swift.max(0, Self.ceilDivide(-start, dilation))
        let upper = Swift.min(kernelShape[axis], Self.floorDivide(inputSize[axis] - 1 - start, dilation) + 1)
        return lower < upper ? lower..<upper : lower..<lower
    }

    /// The kernel taps of output `index` on `axis` that read inside the input
    /// or its padding (not the `ceilMode` overhang beyond the end padding):
    /// what AveragePool with `count_include_pad` divides by.
    public func paddedTapCount(axis: Int, output index: Int) -> Int {
        let start = index * strides[axis] - padsBegin[axis]
        let dilation = dilations[axis]
        let lastPadded = inputSize[axis] + padsEnd[axis] - 1
        let lower = Swift.max(0, Self.ceilDivide(-padsBegin[axis] - start, dilation))
        let upper = Swift.min(kernelShape[axis], Self.floorDivide(lastPadded - start, dilation) + 1)
        return Swift.max(0, upper - lower)
    }

    /// The same geometry with leading unit axes so it has exactly `rank` axes
    /// (a 1-D or 2-D window run by a 3-D loop). Requires `rank >= self.rank`.
    func expanded(toRank target: Int) -> SpatialGeometry {
        let extra = Swift.max(0, target - rank)
        let ones = [Int](repeating: 1, count: extra)
        let zeros = [Int](repeating: 0, count: extra)
        return SpatialGeometry(inputSize: ones + inputSize, kernelShape: ones + kernelShape,
                               strides: ones + strides, dilations: ones + dilations,
                               padsBegin: zeros + padsBegin, padsEnd: zeros + padsEnd,
                               outputSize: ones + outputSize)
    }

    private init(inputSize: [Int], kernelShape: [Int], strides: [Int], dilations: [Int],
                 padsBegin: [Int], padsEnd: [Int], outputSize: [Int]) {
        self.inputSize = inputSize
        self.kernelShape = kernelShape
        self.strides = strides
        self.dilations = dilations
        self.padsBegin = padsBegin
        self.padsEnd = padsEnd
        self.outputSize = outputSize
    }

    /// Larger attribute values are certainly corrupt, and bounding them keeps
    /// the size arithmetic far from overflow.
    static let attributeLimit = 1 << 24

    private static func check(_ name: String, _ values: [Int], count: Int, minimum: Int) throws {
        guard values.count == count else {
            throw FoveaError(.invalidAttribute, "attribute '\(name)' has \(values.count) values \(values); expected \(count)")
        }
        if let bad = values.first(where: { $0 < minimum || $0 > attributeLimit }) {
            throw FoveaError(.invalidAttribute, "attribute '\(name)' contains \(bad); expected values in \(minimum)...\(attributeLimit)")
        }
    }

    /// Division rounding toward negative infinity (Swift's `/` rounds toward zero).
    public static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Division rounding toward positive infinity.
    public static func ceilDivide(_ a: Int, _ b: Int) -> Int {
        -floorDivide(-a, b)
    }
}

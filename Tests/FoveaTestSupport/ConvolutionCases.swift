import FoveaCore

/// Seeded random values for convolution cases (on FoveaCore's
/// ``SeededGenerator``), so that a failing case reproduces from its seed.
public struct ConvRandom {
    /// The underlying generator.
    public var base: SeededGenerator

    public init(seed: UInt64) { base = SeededGenerator(seed: seed) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { base.next() }

    /// A uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A uniform float in [-1, 1), on a 2⁻²³ grid.
    public mutating func float() -> Float { Float(next() >> 40) / Float(1 << 24) * 2 - 1 }

    /// `count` values of ``float()``.
    public mutating func floats(_ count: Int) -> [Float] { (0..<count).map { _ in float() } }

    /// A uniform element of `values` (which must not be empty).
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
}

/// One 2-D convolution node with its inputs, ready to prepare and check on
/// any backend: the shared case generator of the backends' convolution tests.
///
/// The weights are always a constant (input 1); the bias (input 2) is
/// absent, a constant, or a value given at run time (``biasIsConstant``).
public struct ConvCase: CustomStringConvertible {
    /// X: batch × channels × height × width.
    public var input: Tensor
    /// W: output channels × channels/group × kernel height × kernel width.
    public var weights: Tensor
    /// B: one value per output channel, or `nil` for no bias.
    public var bias: Tensor?
    public var attributes: ConvAttributes
    /// Whether the bias is an initializer (packed at prepare) or an input given at run time.
    public var biasIsConstant: Bool

    public init(input: Tensor, weights: Tensor, bias: Tensor?, attributes: ConvAttributes, biasIsConstant: Bool = true) {
        self.input = input
        self.weights = weights
        self.bias = bias
        self.attributes = attributes
        self.biasIsConstant = biasIsConstant
    }

    public var description: String {
        let biasKind = bias == nil ? "none" : (biasIsConstant ? "constant" : "run-time")
        return "X \(input.shape) W \(weights.shape) bias \(biasKind) strides \(attributes.strides) dilations \(attributes.dilations) pads \(attributes.pads) autoPad \(attributes.autoPad) group \(attributes.group) activation \(attributes.activation.map(String.init(describing:)) ?? "none")"
    }

    /// X, W and B in operator order (`nil` for an absent bias).
    public var inputs: [Tensor?] { [input, weights, bias] }

    /// The inputs that are present (X, W, and B if any), for ``LayerCheck/check(_:_:_:constants:tolerance:threads:_:file:line:)``.
    public var presentInputs: [Tensor] { [input, weights] + (bias.map { [$0] } ?? []) }

    /// The indices of the constant inputs: W, and B when it is a constant.
    public var constantIndices: Set<Int> { bias != nil && biasIsConstant ? [1, 2] : [1] }

    /// The convolution operator with ``attributes``.
    public var op: Op { .conv(attributes) }

    /// Whether there is one group per input channel (and more than one channel).
    public var isDepthwise: Bool {
        attributes.group == input.shape[1] && attributes.group > 1
    }

    /// The node context the planner would build for this case.
    public func context() throws -> NodeContext {
        let types = inputs.map { $0.map { TensorType(.float32, $0.shape) } }
        let node = Node(name: "conv", op: .conv(attributes), inputs: bias == nil ? ["x", "w"] : ["x", "w", "b"], outputs: ["y"])
        let outputs = try node.op.outputTypes(inputs: types, outputCount: 1)
        var constants: [Int: Tensor] = [1: weights]
        if let bias, biasIsConstant { constants[2] = bias }
        return NodeContext(node: node, inputTypes: bias == nil ? Array(types.prefix(2)) : types,
                           outputTypes: outputs, constantInputs: constants)
    }

    /// The reference backend's output.
    public func reference() throws -> Tensor {
        let context = try context()
        return try ReferenceBackend.evaluate(context.op, inputs: bias == nil ? [input, weights] : inputs,
                                             outputTypes: context.outputTypes)[0]
    }

    /// Inputs a step prepared for this case must refuse at run time, with the
    /// error kind: X of another shape (`shapeMismatch`), X of another data
    /// type (`unsupported`), no inputs at all (`invalidArgument`).
    public func wrongRunInputs() throws -> [(inputs: [Tensor?], kind: FoveaError.Kind)] {
        let shape = input.shape
        let taller = Tensor(shape: [shape[0], shape[1], shape[2] + 1, shape[3]], repeating: 1)
        let ints = try Tensor(shape: shape, int64s: [Int64](repeating: 1, count: input.count))
        return [([taller, weights, bias], .shapeMismatch), ([ints, weights, bias], .unsupported), ([], .invalidArgument)]
    }

    /// The shape families of ``random(_:family:spatial:)``.
    public enum Family: String, CaseIterable, Sendable {
        /// The mix the SIMD backend's tests were written with: 60% one group,
        /// 20% two or three groups, 20% depthwise (multiplier 1); kernels 1,
        /// 3, 5, 7 (sometimes not square), strides 1–3, dilations, pads,
        /// auto_pad, batch 3 one time in five.
        case mixed
        /// 1×1, one group: mostly stride 1 without pads (a GEMM on the input
        /// planes), else strides or pads (im2col of a 1×1 window).
        case pointwise
        /// k×k (1–7, sometimes not square), strides 1–3, dilations 1–2, pads
        /// or auto_pad, one group.
        case spatial
        /// 3×3, stride 1, dilation 1, one group (Winograd's domain): pads 0–2
        /// or auto_pad, planes that are not multiples of any tile.
        case winograd
        /// Two to four groups of several channels each (not depthwise).
        case grouped
        /// One group per input channel (two or more), channel multiplier 1–3:
        /// 3×3 stride 1 and 2, and k×k with strides and dilations.
        case depthwise
    }

    /// A random case of the mixed family (the SIMD tests' mix).
    public static func random(_ rng: inout ConvRandom, spatial: Int? = nil) -> ConvCase {
        random(&rng, family: .mixed, spatial: spatial)
    }

    /// A random valid case of `family`, with square planes of `spatial` if
    /// given. Batch is 1 or 3; the bias is absent one time in three and
    /// given at run time one time in six; the fused activation is `nil`
    /// (set ``attributes``' `activation` to fuse one).
    public static func random(_ rng: inout ConvRandom, family: Family, spatial: Int? = nil) -> ConvCase {
        while true {
            if let found = attempt(&rng, family: family, spatial: spatial) { return found }
        }
    }

    /// One draw of `family`; `nil` when the geometry is not valid.
    private static func attempt(_ rng: inout ConvRandom, family: Family, spatial: Int?) -> ConvCase? {
        switch family {
        case .mixed:
            let kind = rng.int(0...9)
            let groupChannels = rng.int(1...9), groupOutputs = rng.int(1...19)
            var group = kind < 6 ? 1 : rng.int(2...3)
            var channels = group * groupChannels, outputs = group * groupOutputs
            if kind >= 8 { // depthwise
                channels = rng.int(1...13); group = channels; outputs = channels
            }
            let height = spatial ?? rng.pick([1, 2, 5, 7, 9, 13, 16])
            let width = spatial ?? rng.pick([1, 3, 7, 11, 13, 20])
            let kernel = rng.pick([1, 1, 3, 3, 5, 7])
            let kernelWidth = rng.int(0...4) == 0 ? rng.pick([1, 3]) : kernel
            let strides = [rng.int(1...3), rng.int(1...3)]
            let dilations = rng.int(0...3) == 0 ? [rng.int(1...2), rng.int(1...2)] : [1, 1]
            let pads = (0..<4).map { _ in rng.int(0...3) }
            let autoPad: AutoPad = rng.int(0...7) == 0 ? rng.pick([.sameUpper, .sameLower, .valid]) : .notSet
            let batch = rng.int(0...4) == 0 ? 3 : 1
            let attributes = ConvAttributes(kernelShape: [kernel, kernelWidth], strides: strides, dilations: dilations,
                                            pads: autoPad == .notSet ? pads : [], autoPad: autoPad, group: group)
            return make(&rng, batch: batch, channels: channels, outputs: outputs, height: height, width: width, attributes)
        case .pointwise:
            let channels = rng.int(1...40), outputs = rng.int(1...40)
            let size = spatial ?? rng.pick([1, 4, 7, 13, 19])
            let plain = rng.int(0...3) != 0
            let strides = plain ? [1, 1] : [rng.int(1...2), rng.int(1...3)]
            let pads = plain ? [0, 0, 0, 0] : (0..<4).map { _ in rng.int(0...1) }
            let attributes = ConvAttributes(kernelShape: [1, 1], strides: strides, dilations: [1, 1], pads: pads)
            return make(&rng, batch: randomBatch(&rng), channels: channels, outputs: outputs,
                        height: size, width: spatial ?? rng.pick([1, 5, 13, 20]), attributes)
        case .spatial:
            let channels = rng.int(1...12), outputs = rng.int(1...24)
            let kernel = rng.pick([1, 3, 3, 5, 7])
            let kernelWidth = rng.int(0...3) == 0 ? rng.pick([1, 3, 5]) : kernel
            let strides = [rng.int(1...3), rng.int(1...3)]
            let dilations = rng.int(0...3) == 0 ? [rng.int(1...2), rng.int(1...2)] : [1, 1]
            let pads = (0..<4).map { _ in rng.int(0...3) }
            let autoPad: AutoPad = rng.int(0...5) == 0 ? rng.pick([.sameUpper, .sameLower, .valid]) : .notSet
            let attributes = ConvAttributes(kernelShape: [kernel, kernelWidth], strides: strides, dilations: dilations,
                                            pads: autoPad == .notSet ? pads : [], autoPad: autoPad)
            return make(&rng, batch: randomBatch(&rng), channels: channels, outputs: outputs,
                        height: spatial ?? rng.pick([3, 5, 9, 13, 16]), width: spatial ?? rng.pick([3, 7, 11, 20]), attributes)
        case .winograd:
            let channels = rng.int(1...24), outputs = rng.int(1...40)
            let pads = (0..<4).map { _ in rng.int(0...2) }
            let autoPad: AutoPad = rng.int(0...5) == 0 ? rng.pick([.sameUpper, .sameLower, .valid]) : .notSet
            let attributes = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1],
                                            pads: autoPad == .notSet ? pads : [], autoPad: autoPad)
            return make(&rng, batch: randomBatch(&rng), channels: channels, outputs: outputs,
                        height: spatial ?? rng.pick([1, 2, 3, 5, 8, 13, 17]), width: spatial ?? rng.pick([1, 3, 4, 7, 11, 19]),
                        attributes)
        case .grouped:
            let group = rng.int(2...4)
            let channels = group * rng.int(2...6), outputs = group * rng.int(1...8)
            let kernel = rng.pick([1, 3, 3, 5])
            let strides = rng.int(0...1) == 0 ? [1, 1] : [rng.int(1...2), rng.int(1...2)]
            let pad = kernel / 2
            let attributes = ConvAttributes(kernelShape: [kernel, kernel], strides: strides, dilations: [1, 1],
                                            pads: [pad, pad, rng.int(0...pad), rng.int(0...pad)], group: group)
            return make(&rng, batch: randomBatch(&rng), channels: channels, outputs: outputs,
                        height: spatial ?? rng.pick([5, 9, 14]), width: spatial ?? rng.pick([4, 9, 17]), attributes)
        case .depthwise:
            let channels = rng.int(2...20), multiplier = rng.pick([1, 1, 2, 3])
            let variant = rng.int(0...2)
            let kernel = variant < 2 ? 3 : rng.pick([1, 2, 3, 5, 7])
            let kernelWidth = variant < 2 || rng.int(0...2) != 0 ? kernel : rng.pick([1, 3])
            let strides = variant == 0 ? [1, 1] : variant == 1 ? [2, 2] : [rng.int(1...3), rng.int(1...3)]
            let dilations = variant == 2 && rng.int(0...2) == 0 ? [rng.int(1...2), rng.int(1...3)] : [1, 1]
            let pads = (0..<4).map { _ in rng.int(0...kernel / 2 + 1) }
            let autoPad: AutoPad = rng.int(0...5) == 0 ? rng.pick([.sameUpper, .sameLower, .valid]) : .notSet
            let attributes = ConvAttributes(kernelShape: [kernel, kernelWidth], strides: strides, dilations: dilations,
                                            pads: autoPad == .notSet ? pads : [], autoPad: autoPad, group: channels)
            return make(&rng, batch: randomBatch(&rng), channels: channels, outputs: channels * multiplier,
                        height: spatial ?? rng.pick([1, 2, 5, 8, 13, 21]), width: spatial ?? rng.pick([1, 3, 7, 16, 19, 33]),
                        attributes)
        }
    }

    /// 1 three times in four, else 3.
    private static func randomBatch(_ rng: inout ConvRandom) -> Int { rng.int(0...3) == 0 ? 3 : 1 }

    /// The case with random X, W and B for this geometry; `nil` if the geometry is not valid.
    private static func make(_ rng: inout ConvRandom, batch: Int, channels: Int, outputs: Int, height: Int, width: Int,
                             _ attributes: ConvAttributes) -> ConvCase? {
        guard let geometry = try? SpatialGeometry(inputSize: [height, width], convolution: attributes),
              geometry.outputSize.allSatisfy({ $0 >= 1 }) else { return nil }
        let group = attributes.group
        let kernel = attributes.kernelShape
        do {
            let x = try Tensor(shape: [batch, channels, height, width], floats: rng.floats(batch * channels * height * width))
            let wCount = outputs * (channels / group) * kernel[0] * kernel[1]
            let w = try Tensor(shape: [outputs, channels / group, kernel[0], kernel[1]], floats: rng.floats(wCount))
            let b = rng.int(0...2) == 0 ? nil : try Tensor(shape: [outputs], floats: rng.floats(outputs))
            return ConvCase(input: x, weights: w, bias: b, attributes: attributes, biasIsConstant: rng.int(0...5) != 0)
        } catch {
            return nil
        }
    }
}

import FoveaCore

/// The shape families every backend's operator tests draw from (pooling
/// geometry, broadcast pairs, softmax and activation shapes), so that each
/// backend is checked against the reference on the same cases.
public enum OperatorCases {
    /// One operator with its inputs, and a description for failure messages.
    public struct Case: Sendable {
        public let op: Op
        public let inputs: [Tensor]
        public let description: String
    }

    /// A random 2-D pooling geometry whose padded input fits the dilated
    /// kernel: batch 1 or 3, 1–13 channels, planes from 1×1 to 113×37,
    /// kernels 1–4, strides 1–3, dilations one time in four, pads (sometimes
    /// as large as the window, so that windows lie wholly in the padding),
    /// auto_pad, ceil mode and count_include_pad.
    public static func randomPooling(_ g: inout SeededGenerator) -> (shape: [Int], attributes: PoolAttributes) {
        while true {
            let sizes = [1, 7, 7, 37, 37, 12, 113]
            let height = Int.random(in: 0..<20, using: &g) == 0 ? 113 : LayerCheck.pick(Array(sizes.dropLast()), &g)
            let width = height == 113 ? 37 : LayerCheck.pick(Array(sizes.dropLast()), &g)
            let shape = [LayerCheck.pick([1, 3], &g), LayerCheck.pick([1, 3, 5, 13], &g), height, width]
            let kernel = [Int.random(in: 1...4, using: &g), Int.random(in: 1...4, using: &g)]
            let strides = [Int.random(in: 1...3, using: &g), Int.random(in: 1...3, using: &g)]
            let dilations = Int.random(in: 0..<4, using: &g) == 0 ? [Int.random(in: 1...2, using: &g), Int.random(in: 1...3, using: &g)] : [1, 1]
            // Mostly pads below the kernel; sometimes larger (windows wholly in the padding).
            let padLimit = Int.random(in: 0..<8, using: &g) == 0 ? 4 : 2
            let pads = (0..<4).map { _ in Int.random(in: 0...padLimit, using: &g) }
            let autoPad = LayerCheck.pick([AutoPad.notSet, .notSet, .notSet, .notSet, .valid, .sameUpper, .sameLower], &g)
            let attributes = PoolAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: pads,
                                            autoPad: autoPad, ceilMode: Bool.random(using: &g),
                                            countIncludePad: Bool.random(using: &g))
            if (try? SpatialGeometry(inputSize: [height, width], pooling: attributes)) != nil {
                return (shape, attributes)
            }
        }
    }

    /// A one-line description of a pooling case for failure messages.
    public static func describePooling(_ shape: [Int], _ a: PoolAttributes) -> String {
        "x \(shape.shapeDescription) kernel \(a.kernelShape) strides \(a.strides) dilations \(a.dilations) pads \(a.pads) \(a.autoPad.rawValue) ceil \(a.ceilMode) includePad \(a.countIncludePad)"
    }

    /// `count` MaxPool (`max`) or AveragePool cases of ``randomPooling(_:)``
    /// geometries; the inputs hold special values (NaN, ±inf, ±0, the
    /// largest floats) when `specials` is set.
    public static func poolingCases(max: Bool, seed: UInt64, count: Int, specials: Bool) -> [Case] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let (shape, attributes) = randomPooling(&g)
            let x = specials ? LayerCheck.randomTensorWithSpecials(shape, using: &g) : LayerCheck.randomTensor(shape, using: &g)
            return Case(op: max ? .maxPool(attributes) : .averagePool(attributes), inputs: [x],
                        description: "\(max ? "MaxPool" : "AveragePool") \(describePooling(shape, attributes))")
        }
    }

    /// The spatial parts of global pooling inputs: none, 1, 7×7, 37×37, 1×113 and 5×3×2.
    public static let globalPoolingSpatialShapes: [[Int]] = [[], [1], [7, 7], [37, 37], [1, 113], [5, 3, 2]]

    /// `count` global pooling cases over ``globalPoolingSpatialShapes``,
    /// alternating GlobalMaxPool (inputs with special values) and
    /// GlobalAveragePool (finite inputs in [-4, 4]).
    public static func globalPoolingCases(seed: UInt64, count: Int) -> [Case] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let spatial = LayerCheck.pick(globalPoolingSpatialShapes, &g)
            let shape = [LayerCheck.pick([1, 3], &g), LayerCheck.pick([1, 5, 13, 17], &g)] + spatial
            return index % 2 == 0
                ? Case(op: .globalMaxPool, inputs: [LayerCheck.randomTensorWithSpecials(shape, using: &g)],
                       description: "GlobalMaxPool x \(shape.shapeDescription)")
                : Case(op: .globalAveragePool, inputs: [LayerCheck.randomTensor(shape, using: &g)],
                       description: "GlobalAveragePool x \(shape.shapeDescription)")
        }
    }

    /// The pooling nodes no backend runs on its own kernels: MaxPool with
    /// its Indices output, 1-D and 3-D pooling, integer inputs, a kernel
    /// larger than the input. Each with its input types, output count and why.
    public static let poolingNodesToDecline: [(op: Op, inputs: [TensorType], outputCount: Int, reason: String)] = {
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [], dilations: [], pads: [])
        let x = TensorType(.float32, [1, 2, 9, 9])
        return [
            (.maxPool(pool), [x], 2, "MaxPool with Indices"),
            (.maxPool(PoolAttributes(kernelShape: [3], strides: [], dilations: [], pads: [])), [TensorType(.float32, [1, 2, 9])], 1, "1-D pooling"),
            (.averagePool(PoolAttributes(kernelShape: [3, 3, 3], strides: [], dilations: [], pads: [])),
             [TensorType(.float32, [1, 2, 9, 9, 9])], 1, "3-D pooling"),
            (.maxPool(pool), [TensorType(.int64, [1, 2, 9, 9])], 1, "int64 input"),
            (.globalAveragePool, [TensorType(.int64, [1, 2, 9, 9])], 1, "int64 input"),
            (.maxPool(PoolAttributes(kernelShape: [30, 3], strides: [], dilations: [], pads: [])), [x], 1, "kernel larger than the input"),
        ]
    }()

    /// Pairs of shapes that broadcast: the same shape, a scalar on either
    /// side, a one-element tensor, per-channel ([C,1,1] and [1,C,1,1]) on
    /// either side, a trailing vector, and general two-sided broadcasts up to rank 5.
    public static let broadcastShapePairs: [([Int], [Int])] = [
        ([3, 13, 7, 7], [3, 13, 7, 7]), ([1, 5, 37], [1, 5, 37]), ([7], [7]),
        ([3, 13, 7, 7], []), ([], [1, 5, 37]), ([3, 13, 7, 7], [1]), ([1], [37, 3]),
        ([3, 13, 7, 7], [13, 1, 1]), ([1, 13, 37, 37], [1, 13, 1, 1]), ([13, 1, 1], [3, 13, 7, 7]),
        ([3, 5, 7, 7], [1, 5, 1, 1]),
        ([3, 1, 7], [5, 1]), ([3, 5, 7], [7]), ([7, 1], [1, 9]), ([3, 5, 1, 7], [5, 3, 1]),
        ([1, 13, 37, 1], [1, 1, 1, 37]), ([2, 1, 3, 1, 5], [1, 4, 1, 6, 1]),
    ]

    /// Softmax inputs: a vector, class scores, NCHW planes, and rows of thousands (37×113).
    public static let softmaxShapes: [[Int]] = [[7], [3, 1000], [1, 13, 7, 7], [3, 5, 37], [2, 17, 3, 5], [1, 1], [3, 37, 113]]

    /// Unary activation inputs, from one element to 2×3×37×37.
    public static let activationShapes: [[Int]] = [[1], [7], [3, 5], [1, 13, 7, 7], [3, 5, 37], [2, 3, 37, 37], [1, 17, 113]]

    /// The unary activations of ``activationCases(seed:count:kinds:)``.
    public enum Activation: CaseIterable, Sendable {
        case relu, leakyRelu, clip, sigmoid, hardSigmoid, hardSwish
    }

    /// `count` activation cases: an input of ``activationShapes`` with
    /// special values, and the activations of `kinds` in turn, with random
    /// parameters (LeakyReLU's and HardSigmoid's slopes in [-1, 1], Clip
    /// bounds that may be open or crossed).
    public static func activationCases(seed: UInt64, count: Int, kinds: [Activation] = Activation.allCases) -> [Case] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let shape = LayerCheck.pick(activationShapes, &g)
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            let alpha = Float.random(in: -1...1, using: &g), beta = Float.random(in: -1...1, using: &g)
            let lower: Float? = Bool.random(using: &g) ? Float.random(in: -3...0, using: &g) : nil
            let upper: Float? = Bool.random(using: &g) ? Float.random(in: -1...3, using: &g) : nil
            let op: Op
            switch kinds[index % kinds.count] {
            case .relu: op = .relu
            case .leakyRelu: op = .leakyRelu(alpha: alpha)
            case .clip: op = .clip(min: lower, max: upper)
            case .sigmoid: op = .sigmoid
            case .hardSigmoid: op = .hardSigmoid(alpha: alpha, beta: beta)
            case .hardSwish: op = .hardSwish
            }
            return Case(op: op, inputs: [x], description: "\(op) on \(shape.shapeDescription)")
        }
    }

    /// `count` Concat cases: 1–4 inputs of rank 1–4 with special values,
    /// sizes 0 to 64 along the (signed or unsigned) axis.
    public static func concatCases(seed: UInt64, count: Int) -> [Case] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let rank = Int.random(in: 1...4, using: &g)
            let base = (0..<rank).map { _ in LayerCheck.pick([1, 3, 7, 13, 37], &g) }
            let axis = Int.random(in: 0..<rank, using: &g)
            let count = Int.random(in: 1...4, using: &g)
            let inputs = (0..<count).map { _ -> Tensor in
                var shape = base
                shape[axis] = LayerCheck.pick([0, 1, 5, 13, 64], &g)
                return LayerCheck.randomTensorWithSpecials(shape, using: &g)
            }
            let signedAxis = Bool.random(using: &g) ? axis : axis - rank
            return Case(op: .concat(axis: signedAxis), inputs: inputs,
                        description: "Concat axis \(signedAxis) of \(inputs.map { $0.shape.shapeDescription })")
        }
    }
}

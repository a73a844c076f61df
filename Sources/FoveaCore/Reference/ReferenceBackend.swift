#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The reference backend: every operator in plain, obviously-correct Swift.
///
/// It is the oracle that optimized backends are tested against, so each op
/// follows the ONNX definition directly; speed is secondary (though SqueezeNet
/// still runs in well under a second in a release build). It runs every node,
/// so the planner puts it last and it takes what no other backend takes.
public struct ReferenceBackend: Backend {
    /// `"reference"`: the name this backend goes by in configurations and plans.
    public static let name = "reference"
    public var name: String { Self.name }

    /// Creates the reference backend (it has no state).
    public init() {}

    public func supports(_ node: NodeContext) -> Bool { true }

    public func prepare(_ node: NodeContext) throws -> any PreparedStep {
        ReferenceStep(op: node.op, outputTypes: node.outputTypes)
    }

    /// A node run by ``ReferenceBackend/evaluate(_:inputs:outputTypes:)``; nothing to prepare.
    ///
    /// It stays plain: it copies its input views into tensors, computes new
    /// tensors and copies them into its output views. Because it reads every
    /// input before it writes, it may write over an elementwise op's input and
    /// into strided slices.
    struct ReferenceStep: PreparedStep {
        let op: Op
        let outputTypes: [TensorType]
        var algorithm: String {
            if case .conv(let attributes) = op { return "reference" + attributes.fusionSuffix }
            return "reference"
        }

        /// The reference is the baseline: it must equal itself exactly.
        var tolerance: Float { 0 }
        var writesStridedOutput: Bool { true }
        var overwritableInput: Int? {
            if case .conv(let attributes) = op, attributes.addsResidual { return 3 }
            return op.isElementwise ? 0 : nil
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            // The plan feeds inputs of the planned types, so shape inference
            // is not redone here.
            let inputs = buffers.inputs.map { $0?.copyToTensor() }
            let outputs = try ReferenceBackend.compute(op, ReferenceInputs(tensors: inputs), outputTypes: outputTypes)
            for (view, tensor) in zip(buffers.outputs, outputs) where view.count > 0 {
                guard tensor.shape == view.shape, tensor.dataType == view.dataType else {
                    throw FoveaError(.shapeMismatch, "\(op.typeName) computed \(TensorType(tensor.dataType, tensor.shape)) where \(view.type) was planned")
                }
                view.copy(from: tensor)
            }
        }
    }

    /// Runs one operator.
    ///
    /// The inputs are checked first with ``Op/outputTypes(inputs:outputCount:)``,
    /// so a wrong shape or attribute throws instead of reading out of bounds.
    ///
    /// - Parameters:
    ///   - inputs: the node's inputs in operator order; `nil` for an absent optional input.
    ///   - outputTypes: the types shape inference assigned to the node's outputs
    ///     (one per declared output). Output 0 must match what the inputs give.
    /// - Returns: one tensor per entry of `outputTypes`, with the inferred types.
    public static func evaluate(_ op: Op, inputs: [Tensor?], outputTypes: [TensorType]) throws -> [Tensor] {
        let inferred = try op.outputTypes(inputs: inputs.map { $0?.tensorType }, outputCount: outputTypes.count)
        // Output 0 always has a name, so its planned type is real; an optional
        // output may be unnamed and planned with a placeholder type, and the
        // caller checks the named ones.
        guard inferred.first == outputTypes.first else {
            throw FoveaError(.shapeMismatch, "output 0 was planned as \(outputTypes.first.map(String.init(describing:)) ?? "nothing") but these inputs give \(inferred[0])")
        }
        return try compute(op, ReferenceInputs(tensors: inputs), outputTypes: outputTypes)
    }

    /// Runs one operator on inputs already known to fit `outputTypes`
    /// (checked by ``evaluate(_:inputs:outputTypes:)`` or by the plan).
    static func compute(_ op: Op, _ args: ReferenceInputs, outputTypes: [TensorType]) throws -> [Tensor] {
        guard let shape = outputTypes.first?.shape else {
            throw FoveaError(.invalidModel, "\(op.typeName) has no output")
        }
        switch op {
        case .conv(let attributes) where attributes.addsResidual:
            return [try ReferenceConvolution.runAddingResidual(args, attributes, outputShape: shape)]
        case .conv(let attributes):
            return [try ReferenceConvolution.run(args, attributes, outputShape: shape)]
        case .maxPool(let attributes):
            return try ReferencePooling.maxPool(args, attributes, withIndices: outputTypes.count == 2)
        case .averagePool(let attributes):
            return [try ReferencePooling.averagePool(args, attributes)]
        case .globalAveragePool:
            return [try ReferencePooling.globalPool(args, outputShape: shape, average: true)]
        case .globalMaxPool:
            return [try ReferencePooling.globalPool(args, outputShape: shape, average: false)]
        case .relu, .leakyRelu, .sigmoid, .hardSigmoid, .hardSwish, .clip:
            return [try ReferenceActivations.run(op, args)]
        case .prelu:
            return [try ReferenceBinary.run(args, outputShape: shape) { x, slope in x < 0 ? slope * x : x }]
        case .add, .sub, .mul, .div:
            if case .int64 = try args.tensor(0).storage {
                return [try ReferenceBinary.integerArithmetic(op, args, outputShape: shape)]
            }
            switch op {
            case .add: return [try ReferenceBinary.run(args, outputShape: shape) { $0 + $1 }]
            case .sub: return [try ReferenceBinary.run(args, outputShape: shape) { $0 - $1 }]
            case .mul: return [try ReferenceBinary.run(args, outputShape: shape) { $0 * $1 }]
            default: return [try ReferenceBinary.run(args, outputShape: shape) { $0 / $1 }]
            }
        case .sum:
            return [try ReferenceBinary.sum(args, outputShape: shape)]
        case .gemm(let attributes):
            return [try ReferenceMatrix.gemm(args, attributes, outputShape: shape)]
        case .matMul:
            return [try ReferenceMatrix.matMul(args, outputShape: shape)]
        case .batchNormalization(let epsilon):
            return [try ReferenceNormalization.batchNormalization(args, epsilon: epsilon)]
        case .lrn(let attributes):
            return [try ReferenceNormalization.lrn(args, attributes)]
        case .softmax(let attributes):
            return [try ReferenceNormalization.softmax(args, attributes, logarithm: false)]
        case .logSoftmax(let attributes):
            return [try ReferenceNormalization.softmax(args, attributes, logarithm: true)]
        case .concat(let axis):
            return [try ReferenceLayout.concat(args, axis: axis, outputShape: shape)]
        case .withComputedParameters(let computed):
            // Planning folds these first, and shape inference refuses any left.
            throw FoveaError(.unsupported, "\(computed.typeName) with computed parameters runs only after folding (Graph.foldingShapeComputations)")
        case .flatten, .reshape, .squeeze, .unsqueeze, .identity:
            // Same elements in the same order; only the shape changes.
            return [try args.tensor(0).reshaped(shape)]
        case .dropout:
            let x = try args.tensor(0)
            let mask = Tensor(uncheckedShape: x.shape, storage: .bool([Bool](repeating: true, count: x.count)))
            return outputTypes.count == 2 ? [x, mask] : [x]
        case .transpose(let perm):
            return [try ReferenceLayout.transpose(args, perm: perm)]
        case .pad(let pads, let value, let axes):
            return [try ReferenceLayout.pad(args, pads: pads, value: value, axes: axes, outputShape: shape)]
        case .shape(let start, let end):
            let x = try args.tensor(0)
            let dims = x.shape[Op.shapeSlice(rank: x.rank, start: start, end: end)].map { Int64($0) }
            return [Tensor(uncheckedShape: [dims.count], storage: .int64(dims))]
        case .size:
            return [Tensor(uncheckedShape: [], storage: .int64([Int64(try args.tensor(0).count)]))]
        case .unary(let function):
            if let values = try args.tensor(0).int64s {
                // Neg and Abs of shape values (shape inference refuses other functions on int64).
                let x = try args.tensor(0)
                return [Tensor(uncheckedShape: x.shape, storage: .int64(function == .neg ? values.map { 0 &- $0 } : values.map { $0 < 0 ? 0 &- $0 : $0 }))]
            }
            return [try ReferenceUnary.run(function, args)]
        case .borderPad(let pads, let mode):
            return [try ReferenceBorderPadding.run(args, pads: pads, mode: mode, outputShape: shape)]
        case .reduce(let attributes):
            return [try ReferenceReduction.reduce(args, attributes, outputShape: shape)]
        case .argMax(let axis, _, let selectLastIndex):
            return [try ReferenceReduction.argMax(args, axis: axis, selectLastIndex: selectLastIndex, outputShape: shape)]
        case .pow:
            return [try ReferenceBinary.run(args, outputShape: shape) { powf($0, $1) }]
        case .mod(let fmod):
            return [try ReferenceRemainder.run(args, fmod: fmod, outputShape: shape)]
        case .scatterND(let reduction):
            return [try ReferenceScatter.scatterND(args, reduction: reduction)]
        case .maximum:
            return [try ReferenceBinary.extremum(args, outputShape: shape, largest: true)]
        case .minimum:
            return [try ReferenceBinary.extremum(args, outputShape: shape, largest: false)]
        case .squeezeExcitation(let attributes):
            // By composition: the pool, the two convolutions, the broadcast product.
            let x = try args.tensor(0)
            let (n, c) = (x.shape[0], x.shape[1])
            let pooled = try compute(.globalAveragePool, ReferenceInputs(tensors: [x]), outputTypes: [TensorType(.float32, [n, c, 1, 1])])
            let reducedChannels = try args.tensor(1).shape[0]
            let reduced = try compute(.conv(attributes.reduce), ReferenceInputs(tensors: [pooled[0], args.optional(1), args.optional(2)]),
                                      outputTypes: [TensorType(.float32, [n, reducedChannels, 1, 1])])
            let gate = try compute(.conv(attributes.expand), ReferenceInputs(tensors: [reduced[0], args.optional(3), args.optional(4)]),
                                   outputTypes: [TensorType(.float32, [n, c, 1, 1])])
            return try compute(.mul, ReferenceInputs(tensors: [x, gate[0]]), outputTypes: outputTypes)
        case .quantizeLinear(let attributes):
            return [try ReferenceQuantization.quantizeLinear(args, attributes)]
        case .dequantizeLinear(let axis):
            return [try ReferenceQuantization.dequantizeLinear(args, axis: axis)]
        case .dynamicQuantizeLinear:
            return try ReferenceQuantization.dynamicQuantizeLinear(args)
        case .qLinearConv(let attributes):
            return [try ReferenceQuantization.qLinearConv(args, attributes, outputShape: shape)]
        case .qLinearMatMul:
            return [try ReferenceQuantization.qLinearMatMul(args, outputShape: shape)]
        case .convInteger(let attributes):
            return [try ReferenceQuantization.convInteger(args, attributes, outputShape: shape)]
        case .matMulInteger:
            return [try ReferenceQuantization.matMulInteger(args, outputShape: shape)]
        case .quantizedConv(let attributes):
            return [try ReferenceQuantization.quantizedConv(args, attributes, outputShape: shape)]
        case .qLinearGlobalAveragePool(let channelsLast):
            return [try ReferenceQuantization.qLinearGlobalAveragePool(args, channelsLast: channelsLast, outputShape: shape)]
        case .layerNormalization(let axis, let epsilon):
            return try ReferenceFeatureNormalization.layer(args, axis: axis, epsilon: epsilon, outputTypes: outputTypes)
        case .instanceNormalization(let epsilon):
            return [try ReferenceFeatureNormalization.instance(args, epsilon: epsilon)]
        case .groupNormalization(let groups, let epsilon, let perChannel):
            return [try ReferenceFeatureNormalization.group(args, groups: groups, epsilon: epsilon, perChannel: perChannel)]
        case .slice(let starts, let ends, let axes, let steps):
            return [try ReferenceDataMovement.slice(args, starts: starts, ends: ends, axes: axes, steps: steps)]
        case .split(let axis, let sizes):
            return try ReferenceDataMovement.split(args, axis: axis, sizes: sizes, outputCount: outputTypes.count)
        case .gather(let axis):
            return [try ReferenceDataMovement.gather(args, axis: axis, outputShape: shape)]
        case .expand:
            return [try ReferenceDataMovement.expand(args, outputShape: shape)]
        case .tile:
            return [try ReferenceDataMovement.tile(args, outputShape: shape)]
        case .depthToSpace(let block, let columnRowDepth):
            return [try ReferenceDataMovement.depthToSpace(args, block: block, columnRowDepth: columnRowDepth, outputShape: shape)]
        case .spaceToDepth(let block):
            return [try ReferenceDataMovement.spaceToDepth(args, block: block, outputShape: shape)]
        case .select:
            return [try ReferenceLogical.select(args, outputShape: shape)]
        case .compare(let comparison):
            return [try ReferenceLogical.compare(comparison, args, outputShape: shape)]
        case .not:
            return [try ReferenceLogical.not(args)]
        case .cast(let target):
            return [try ReferenceLogical.cast(args, to: target)]
        case .resize(let attributes):
            return [try ReferenceResize.run(args, attributes)]
        }
    }
}

/// A node's input tensors, with typed accessors that fail cleanly.
struct ReferenceInputs {
    let tensors: [Tensor?]

    /// The input at `index`, which must be present.
    func tensor(_ index: Int) throws -> Tensor {
        guard index < tensors.count, let tensor = tensors[index] else {
            throw FoveaError(.invalidModel, "required input \(index) is missing")
        }
        return tensor
    }

    /// The input at `index` if present.
    func optional(_ index: Int) -> Tensor? {
        index < tensors.count ? tensors[index] : nil
    }

    /// The float elements of input `index`, which must be present.
    func floats(_ index: Int) throws -> [Float] {
        try tensor(index).requireFloats("input \(index)")
    }
}

extension Tensor {
    /// This tensor's element type and shape.
    var tensorType: TensorType { TensorType(dataType, shape) }

    /// A float tensor whose element count the caller has established.
    init(uncheckedShape shape: [Int], floats: [Float]) {
        self.init(uncheckedShape: shape, storage: .float32(floats))
    }
}

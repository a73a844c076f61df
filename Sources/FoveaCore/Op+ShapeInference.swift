extension Op {
    /// The types of a node's outputs given the types of its inputs, checking
    /// that the inputs and attributes fit together (ONNX semantics).
    ///
    /// Backends rely on this check: once it passes, an op's kernel may assume
    /// the shapes are consistent.
    ///
    /// - Parameters:
    ///   - inputs: the input types in the operator's order; `nil` for an absent
    ///     optional input.
    ///   - outputCount: how many outputs the node declares.
    /// - Throws: `FoveaError` (`.shapeMismatch`, `.invalidAttribute`,
    ///   `.unsupported` or `.invalidModel`) saying what was expected and found.
    ///   The caller adds the node's location.
    public func outputTypes(inputs: [TensorType?], outputCount: Int) throws -> [TensorType] {
        let types = try uncheckedOutputTypes(inputs: inputs, outputCount: outputCount)
        // Every later step (Flatten, planning, the arena) multiplies a shape out;
        // a file whose sizes overflow that product is refused here, once.
        for type in types where checkedProduct(type.shape) == nil {
            throw FoveaError(.shapeMismatch, "gives an output of \(type.shape.shapeDescription), whose element count overflows")
        }
        return types
    }

    private func uncheckedOutputTypes(inputs: [TensorType?], outputCount: Int) throws -> [TensorType] {
        guard outputCount >= 1, outputCount <= maximumOutputCount else {
            throw FoveaError(.invalidModel, "has \(outputCount) outputs; \(typeName) produces \(maximumOutputCount == 1 ? "1" : "1 or \(maximumOutputCount)")")
        }
        let args = InferenceInputs(types: inputs, opName: typeName)
        switch self {
        case .conv(let attributes):
            return [try Self.convolutionType(args, attributes)]
        case .relu, .leakyRelu, .sigmoid, .hardSigmoid, .hardSwish, .clip:
            return [try args.float(0, "X")]
        case .prelu:
            let x = try args.float(0, "X"), slope = try args.float(1, "slope")
            guard (try? broadcastShape(x.shape, slope.shape)) == x.shape else {
                throw FoveaError(.shapeMismatch, "slope is \(slope.shape.shapeDescription); expected a shape that broadcasts to X (\(x.shape.shapeDescription))")
            }
            return [x]
        case .maxPool(let attributes), .averagePool(let attributes):
            // MaxPool also takes 8-bit tensors (ONNX opset 12): the maximum of the integers.
            let x = try args.spatialInput(allowingEightBit: { if case .maxPool = self { return true } else { return false } }())
            let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), pooling: attributes)
            let y = TensorType(x.dataType, Array(x.shape.prefix(2)) + geometry.outputSize)
            return outputCount == 2 ? [y, TensorType(.int64, y.shape)] : [y]
        case .globalAveragePool, .globalMaxPool:
            let x = try args.float(0, "X")
            guard x.shape.count >= 2 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank >= 2 (N×C×spatial)")
            }
            return [TensorType(.float32, Array(x.shape.prefix(2)) + [Int](repeating: 1, count: x.shape.count - 2))]
        case .concat(let axis):
            return [try Self.concatenationType(args, axis: axis)]
        case .softmax(let attributes), .logSoftmax(let attributes):
            let x = try args.float(0, "input")
            _ = try normalizedAxis(attributes.axis, rank: x.shape.count)
            return [x]
        case .flatten(let axis):
            let x = try args.required(0, "input")
            // Flatten's axis is in -r...r and a negative one counts from r (so -1 is r - 1).
            let split = axis < 0 ? axis + x.shape.count : axis
            guard split >= 0, split <= x.shape.count else {
                throw FoveaError(.invalidAttribute, "attribute 'axis' is \(axis); expected -\(x.shape.count)...\(x.shape.count) for rank \(x.shape.count)")
            }
            return [TensorType(x.dataType, [x.shape[..<split].reduce(1, *), x.shape[split...].reduce(1, *)])]
        case .reshape(let shape, let allowZero):
            let x = try args.required(0, "data")
            return [TensorType(x.dataType, try Self.reshapedShape(x.shape, to: shape, allowZero: allowZero))]
        case .withComputedParameters(let computed):
            // Reached only when folding could not compute the parameters (see Graph.foldingShapeComputations).
            throw FoveaError(.unsupported, "the \(computed.firstParameter == 0 ? "shape" : "parameters") of \(computed.typeName) are computed from values known only at run time; Fovea folds them when they depend only on input shapes and constants")
        case .squeeze(let axes):
            let x = try args.required(0, "data")
            return [TensorType(x.dataType, try Self.squeezedShape(x.shape, axes: axes))]
        case .unsqueeze(let axes):
            let x = try args.required(0, "data")
            return [TensorType(x.dataType, try Self.unsqueezedShape(x.shape, axes: axes))]
        case .transpose(let perm):
            let x = try args.required(0, "data")
            let order = try Self.permutation(perm, rank: x.shape.count)
            return [TensorType(x.dataType, order.map { x.shape[$0] })]
        case .gemm(let attributes):
            return [try Self.gemmType(args, attributes)]
        case .matMul:
            return [try Self.matMulType(args)]
        case .add, .sub, .mul, .div:
            // int64 too: exporters do shape arithmetic (x.size(1) - 1, h // 2) with these.
            let a = try args.required(0, "A"), b = try args.required(1, "B")
            guard a.dataType == b.dataType, a.dataType == .float32 || a.dataType == .int64 else {
                throw FoveaError(.unsupported, "A has data type \(a.dataType) and B \(b.dataType); \(typeName) computes on two float32 or two int64 tensors")
            }
            return [TensorType(a.dataType, try broadcastShape(a.shape, b.shape))]
        case .mod(let fmod):
            let a = try args.required(0, "A"), b = try args.required(1, "B")
            guard a.dataType == b.dataType, a.dataType == .float32 || a.dataType == .int64 else {
                throw FoveaError(.unsupported, "A has data type \(a.dataType) and B \(b.dataType); Mod computes on two float32 or two int64 tensors")
            }
            guard fmod || a.dataType == .int64 else {
                throw FoveaError(.invalidAttribute, "attribute 'fmod' is 0 with float32 inputs; ONNX Mod requires fmod = 1 for floating-point types")
            }
            return [TensorType(a.dataType, try broadcastShape(a.shape, b.shape))]
        case .sum:
            guard !inputs.isEmpty else { throw FoveaError(.invalidModel, "Sum needs at least one input") }
            var shape = try args.float(0, "input 0").shape
            for index in 1..<inputs.count {
                shape = try broadcastShape(shape, try args.float(index, "input \(index)").shape)
            }
            return [TensorType(.float32, shape)]
        case .batchNormalization:
            let x = try args.float(0, "X")
            guard x.shape.count >= 2 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank >= 2 (N×C×...)")
            }
            for (index, role) in ["scale", "B", "input_mean", "input_var"].enumerated() {
                let parameter = try args.float(index + 1, role)
                guard parameter.shape == [x.shape[1]] else {
                    throw FoveaError(.shapeMismatch, "\(role) is \(parameter.shape.shapeDescription); expected \(x.shape[1]) (one per channel of X, \(x.shape.shapeDescription))")
                }
            }
            return [x]
        case .lrn(let attributes):
            let x = try args.float(0, "X")
            guard x.shape.count >= 2 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank >= 2 (N×C×...)")
            }
            guard attributes.size >= 1 else {
                throw FoveaError(.invalidAttribute, "attribute 'size' is \(attributes.size); expected >= 1")
            }
            return [x]
        case .dropout:
            let x = try args.required(0, "data")
            return outputCount == 2 ? [x, TensorType(.bool, x.shape)] : [x]
        case .identity:
            return [try args.required(0, "input")]
        case .pad(let pads, let value, let axes):
            let x = try args.required(0, "data")
            return [TensorType(x.dataType, try Self.paddedShape(x, pads: pads, value: value, axes: axes))]
        case .shape(let start, let end):
            let x = try args.required(0, "data")
            return [TensorType(.int64, [Self.shapeSlice(rank: x.shape.count, start: start, end: end).count])]
        case .size:
            _ = try args.required(0, "data")
            return [TensorType(.int64, [])]
        case .unary(.neg), .unary(.abs):
            let x = try args.required(0, "X")
            guard x.dataType != .bool else {
                throw FoveaError(.unsupported, "X has data type bool; \(typeName) computes on float32 or int64")
            }
            return [x]
        case .unary:
            return [try args.float(0, "X")]
        case .borderPad(let pads, let mode):
            let x = try args.required(0, "data")
            return [TensorType(x.dataType, try Self.borderPaddedShape(x.shape, pads: pads, mode: mode))]
        case .reduce(let attributes):
            let x = try args.float(0, "data")
            return [TensorType(.float32, try Self.reducedShape(x.shape, axes: attributes.axes, keepDims: attributes.keepDims))]
        case .argMax(let axis, let keepDims, _):
            let x = try args.float(0, "data")
            let resolved = try normalizedAxis(axis, rank: x.shape.count)
            guard x.shape[resolved] > 0 else {
                throw FoveaError(.shapeMismatch, "data is \(x.shape.shapeDescription); ArgMax needs a non-empty axis \(resolved)")
            }
            return [TensorType(.int64, try Self.reducedShape(x.shape, axes: [axis], keepDims: keepDims))]
        case .pow:
            let a = try args.float(0, "X"), b = try args.float(1, "Y")
            return [TensorType(.float32, try broadcastShape(a.shape, b.shape))]
        case .maximum, .minimum:
            guard !inputs.isEmpty else { throw FoveaError(.invalidModel, "\(typeName) needs at least one input") }
            var shape = try args.float(0, "data_0").shape
            for index in 1..<inputs.count {
                shape = try broadcastShape(shape, try args.float(index, "data_\(index)").shape)
            }
            return [TensorType(.float32, shape)]
        case .layerNormalization(let axis, _):
            return try Self.layerNormalizationTypes(args, axis: axis, outputCount: outputCount)
        case .instanceNormalization:
            let x = try args.float(0, "input")
            guard x.shape.count >= 3 else {
                throw FoveaError(.shapeMismatch, "input is \(x.shape.shapeDescription); expected rank >= 3 (N×C×spatial)")
            }
            try Self.requirePerChannel(args, roles: ["scale", "B"], count: x.shape[1], of: x)
            return [x]
        case .groupNormalization(let groups, _, let perChannel):
            let x = try args.float(0, "X")
            guard x.shape.count >= 3 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank >= 3 (N×C×spatial)")
            }
            guard groups >= 1, x.shape[1] % groups == 0 else {
                throw FoveaError(.invalidAttribute, "attribute 'num_groups' is \(groups); expected a divisor of the \(x.shape[1]) channels of X (\(x.shape.shapeDescription))")
            }
            try Self.requirePerChannel(args, roles: ["scale", "bias"], count: perChannel ? x.shape[1] : groups, of: x)
            return [x]
        case .slice, .split, .gather, .expand, .tile, .select, .compare, .not, .cast, .depthToSpace, .spaceToDepth, .scatterND:
            return try dataMovementTypes(args, outputCount: outputCount)
        case .quantizeLinear, .dequantizeLinear, .dynamicQuantizeLinear, .qLinearConv, .qLinearMatMul,
             .convInteger, .matMulInteger, .quantizedConv, .qLinearGlobalAveragePool:
            return try quantizationTypes(args)
        case .resize(let attributes):
            let x = try args.float(0, "X")
            return [TensorType(.float32, try attributes.geometry(inputShape: x.shape).outputShape)]
        case .squeezeExcitation(let attributes):
            // The two convolutions on the pooled [N, C, 1, 1] must give it back.
            let x = try args.float(0, "X")
            guard x.shape.count == 4 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected N×C×H×W")
            }
            let pooled = TensorType(.float32, [x.shape[0], x.shape[1], 1, 1])
            let reduced = try Op.conv(attributes.reduce).outputTypes(inputs: [pooled, inputs[1], inputs.count > 2 ? inputs[2] : nil], outputCount: 1)
            let gate = try Op.conv(attributes.expand).outputTypes(inputs: [reduced[0], inputs.count > 3 ? inputs[3] : nil,
                                                                          inputs.count > 4 ? inputs[4] : nil], outputCount: 1)
            guard gate == [pooled] else {
                throw FoveaError(.shapeMismatch, "the squeeze-and-excitation gate is \(gate.map(\.shape.shapeDescription)); expected \(pooled.shape.shapeDescription)")
            }
            return [x]
        }
    }

    /// MaxPool may also output indices; Dropout a mask; LayerNormalization its statistics.
    private var maximumOutputCount: Int {
        switch self {
        case .maxPool, .dropout: return 2
        case .layerNormalization, .dynamicQuantizeLinear: return 3
        case .split: return Int.max
        default: return 1
        }
    }
}

/// A node's input types with the checks every operator needs.
struct InferenceInputs {
    let types: [TensorType?]
    let opName: String

    /// The input at `index`, which must be present.
    func required(_ index: Int, _ role: String) throws -> TensorType {
        guard index < types.count, let type = types[index] else {
            throw FoveaError(.invalidModel, "required input \(index) (\(role)) is missing")
        }
        return type
    }

    /// The input at `index` if present.
    func optional(_ index: Int) -> TensorType? {
        index < types.count ? types[index] : nil
    }

    /// The input at `index`, which must be present and float32.
    func float(_ index: Int, _ role: String) throws -> TensorType {
        try Self.requireFloat(try required(index, role), role, opName)
    }

    /// Input 0 of a convolution or pooling: float32 N×C×spatial with 1 to 3 spatial axes.
    func spatialInput(allowingEightBit: Bool = false) throws -> TensorType {
        let x = allowingEightBit && optional(0)?.dataType.quantizedRange != nil ? try required(0, "X") : try float(0, "X")
        guard x.shape.count >= 3 else {
            throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank 3 to 5 (N×C×spatial)")
        }
        guard x.shape.count <= 5 else {
            throw FoveaError(.unsupported, "X is \(x.shape.shapeDescription): \(opName) over \(x.shape.count - 2) spatial axes is not supported (1 to 3)")
        }
        return x
    }

    static func requireFloat(_ type: TensorType, _ role: String, _ opName: String) throws -> TensorType {
        guard type.dataType == .float32 else {
            throw FoveaError(.unsupported, "\(role) has data type \(type.dataType); \(opName) computes on float32 only")
        }
        return type
    }
}

extension Op {
    /// The shape after reducing `axes` (`nil`: all; `[]`: none) with or without keeping them as 1s.
    static func reducedShape(_ shape: [Int], axes: [Int]?, keepDims: Bool) throws -> [Int] {
        let reduced = try axes.map { try distinctAxes($0, rank: shape.count) } ?? Set(shape.indices)
        return shape.indices.compactMap { axis in
            guard reduced.contains(axis) else { return shape[axis] }
            return keepDims ? 1 : nil
        }
    }

    /// Y like X; Mean and InvStdDev keep the axes before `axis` and have 1s after.
    private static func layerNormalizationTypes(_ args: InferenceInputs, axis: Int, outputCount: Int) throws -> [TensorType] {
        let x = try args.float(0, "X")
        let resolved = try normalizedAxis(axis, rank: x.shape.count)
        let normalized = Array(x.shape[resolved...])
        let scale = try args.float(1, "Scale")
        let bias = try args.optional(2).map { try InferenceInputs.requireFloat($0, "B", "LayerNormalization") }
        for (role, parameter) in [("Scale", scale), ("B", bias)] {
            guard let parameter else { continue }
            guard parameter.shape.count <= normalized.count, (try? broadcastShape(parameter.shape, normalized)) == normalized else {
                throw FoveaError(.shapeMismatch, "\(role) is \(parameter.shape.shapeDescription); expected a shape that broadcasts to the normalized axes \(normalized.shapeDescription) of X (\(x.shape.shapeDescription))")
            }
        }
        let statistics = TensorType(.float32, Array(x.shape[..<resolved]) + [Int](repeating: 1, count: normalized.count))
        return [x] + [TensorType](repeating: statistics, count: outputCount - 1)
    }

    /// Checks that inputs 1, 2 (named `roles`) are float vectors of `count` values.
    private static func requirePerChannel(_ args: InferenceInputs, roles: [String], count: Int, of x: TensorType) throws {
        for (offset, role) in roles.enumerated() {
            let parameter = try args.float(offset + 1, role)
            guard parameter.shape == [count] else {
                throw FoveaError(.shapeMismatch, "\(role) is \(parameter.shape.shapeDescription); expected \(count) values for X (\(x.shape.shapeDescription))")
            }
        }
    }

    static func convolutionType(_ args: InferenceInputs, _ a: ConvAttributes) throws -> TensorType {
        let x = try args.spatialInput(), w = try args.float(1, "W")
        guard w.shape.count == x.shape.count else {
            throw FoveaError(.shapeMismatch, "W is \(w.shape.shapeDescription); expected rank \(x.shape.count) like X (\(x.shape.shapeDescription))")
        }
        guard a.group >= 1 else {
            throw FoveaError(.invalidAttribute, "attribute 'group' is \(a.group); expected >= 1")
        }
        let channels = x.shape[1], outputChannels = w.shape[0]
        guard channels % a.group == 0, w.shape[1] * a.group == channels else {
            throw FoveaError(.shapeMismatch, "W is \(w.shape.shapeDescription) with \(w.shape[1]) input channels per group; X (\(x.shape.shapeDescription)) has \(channels) channels in \(a.group) group(s)")
        }
        guard outputChannels % a.group == 0 else {
            throw FoveaError(.shapeMismatch, "W is \(w.shape.shapeDescription): \(outputChannels) output channels do not split into \(a.group) groups")
        }
        let weightKernel = Array(w.shape.dropFirst(2))
        guard a.kernelShape.isEmpty || a.kernelShape == weightKernel else {
            throw FoveaError(.shapeMismatch, "attribute 'kernel_shape' is \(a.kernelShape) but W is \(w.shape.shapeDescription)")
        }
        if let b = args.optional(2) {
            _ = try InferenceInputs.requireFloat(b, "B", "Conv")
            guard b.shape == [outputChannels] else {
                throw FoveaError(.shapeMismatch, "B is \(b.shape.shapeDescription); expected \(outputChannels) (one per output channel of W, \(w.shape.shapeDescription))")
            }
        }
        let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), convolution: a, weightShape: w.shape)
        let y = TensorType(.float32, [x.shape[0], outputChannels] + geometry.outputSize)
        // Input 3 exists only as the residual a fused Add brought (FuseConvAdd): the output's shape exactly, no broadcasting.
        if a.addsResidual {
            let residual = try args.float(3, "residual")
            guard residual.shape == y.shape else {
                throw FoveaError(.shapeMismatch, "the residual input is \(residual.shape.shapeDescription); expected the output's shape \(y.shape.shapeDescription)")
            }
        } else if args.optional(3) != nil {
            throw FoveaError(.invalidModel, "Conv has 3 inputs at most (X, W, B); input 3 is only a fused residual")
        }
        return y
    }

    private static func concatenationType(_ args: InferenceInputs, axis: Int) throws -> TensorType {
        guard !args.types.isEmpty else { throw FoveaError(.invalidModel, "Concat needs at least one input") }
        let first = try args.required(0, "input 0")
        let resolved = try normalizedAxis(axis, rank: first.shape.count)
        var shape = first.shape
        for index in 1..<args.types.count {
            let next = try args.required(index, "input \(index)")
            guard next.dataType == first.dataType else {
                throw FoveaError(.shapeMismatch, "input \(index) has data type \(next.dataType); input 0 has \(first.dataType)")
            }
            let agrees = next.shape.count == shape.count
                && zip(next.shape, shape).enumerated().allSatisfy { $0.offset == resolved || $0.element.0 == $0.element.1 }
            guard agrees else {
                throw FoveaError(.shapeMismatch, "input \(index) is \(next.shape.shapeDescription); expected \(first.shape.shapeDescription) except along axis \(resolved)")
            }
            shape[resolved] += next.shape[resolved]
        }
        return TensorType(first.dataType, shape)
    }

    private static func gemmType(_ args: InferenceInputs, _ a: GemmAttributes) throws -> TensorType {
        let lhs = try args.float(0, "A"), rhs = try args.float(1, "B")
        guard lhs.shape.count == 2, rhs.shape.count == 2 else {
            throw FoveaError(.shapeMismatch, "A is \(lhs.shape.shapeDescription) and B is \(rhs.shape.shapeDescription); Gemm expects two matrices")
        }
        let (m, k) = a.transA ? (lhs.shape[1], lhs.shape[0]) : (lhs.shape[0], lhs.shape[1])
        let (k2, n) = a.transB ? (rhs.shape[1], rhs.shape[0]) : (rhs.shape[0], rhs.shape[1])
        guard k == k2 else {
            throw FoveaError(.shapeMismatch, "A\(a.transA ? "ᵀ" : "") is \(m)×\(k) and B\(a.transB ? "ᵀ" : "") is \(k2)×\(n); inner dimensions differ")
        }
        if let c = args.optional(2) {
            _ = try InferenceInputs.requireFloat(c, "C", "Gemm")
            guard (try? broadcastShape(c.shape, [m, n])) == [m, n] else {
                throw FoveaError(.shapeMismatch, "C is \(c.shape.shapeDescription); expected a shape that broadcasts to \(m)×\(n)")
            }
        }
        return TensorType(.float32, [m, n])
    }

    static func matMulType(_ args: InferenceInputs) throws -> TensorType {
        let lhs = try args.float(0, "A"), rhs = try args.float(1, "B")
        guard !lhs.shape.isEmpty, !rhs.shape.isEmpty else {
            throw FoveaError(.shapeMismatch, "A is \(lhs.shape.shapeDescription) and B is \(rhs.shape.shapeDescription); MatMul needs operands of rank >= 1")
        }
        let a = MatMulOperands(lhs.shape, rhs.shape)
        guard a.lhsColumns == a.rhsRows else {
            throw FoveaError(.shapeMismatch, "A is \(lhs.shape.shapeDescription) and B is \(rhs.shape.shapeDescription); inner dimensions differ (\(a.lhsColumns) vs \(a.rhsRows))")
        }
        let batch: [Int]
        do {
            batch = try broadcastShape(a.lhsBatch, a.rhsBatch)
        } catch {
            throw FoveaError(.shapeMismatch, "A is \(lhs.shape.shapeDescription) and B is \(rhs.shape.shapeDescription); batch dimensions \(a.lhsBatch.shapeDescription) and \(a.rhsBatch.shapeDescription) cannot be broadcast")
        }
        return TensorType(.float32, batch + (lhs.shape.count == 1 ? [] : [a.rows]) + (rhs.shape.count == 1 ? [] : [a.columns]))
    }

    /// Reshape's target with `0` and `-1` resolved.
    static func reshapedShape(_ input: [Int], to target: [Int], allowZero: Bool) throws -> [Int] {
        guard target.allSatisfy({ $0 >= -1 }) else {
            throw FoveaError(.invalidAttribute, "shape \(target) has a dimension below -1")
        }
        let inferred = target.indices.filter { target[$0] == -1 }
        guard inferred.count <= 1 else {
            throw FoveaError(.invalidAttribute, "shape \(target) has more than one -1")
        }
        if allowZero, !inferred.isEmpty, target.contains(0) {
            throw FoveaError(.invalidAttribute, "shape \(target) has both 0 and -1, which allowzero=1 forbids")
        }
        var shape = target
        for (index, dim) in target.enumerated() where dim == 0 && !allowZero {
            guard index < input.count else {
                throw FoveaError(.shapeMismatch, "shape \(target) copies dimension \(index) (0) but the input \(input.shapeDescription) has rank \(input.count)")
            }
            shape[index] = input[index]
        }
        guard let product = checkedProduct(shape.filter { $0 != -1 }), product <= Int(Int32.max) * Int(Int32.max) else {
            throw FoveaError(.invalidAttribute, "shape \(target) has too many elements")
        }
        if let index = inferred.first {
            let known = product
            guard known > 0, input.elementCount % known == 0 else {
                throw FoveaError(.shapeMismatch, "cannot reshape \(input.shapeDescription) (\(input.elementCount) elements) to \(target)")
            }
            shape[index] = input.elementCount / known
        }
        guard shape.elementCount == input.elementCount else {
            throw FoveaError(.shapeMismatch, "cannot reshape \(input.shapeDescription) (\(input.elementCount) elements) to \(target) (\(shape.elementCount) elements)")
        }
        return shape
    }

    static func squeezedShape(_ input: [Int], axes: [Int]?) throws -> [Int] {
        guard let axes else { return input.filter { $0 != 1 } }
        let resolved = try Self.distinctAxes(axes, rank: input.count)
        for axis in resolved where input[axis] != 1 {
            throw FoveaError(.shapeMismatch, "cannot squeeze axis \(axis) of \(input.shapeDescription): its size is \(input[axis]), not 1")
        }
        return input.enumerated().filter { !resolved.contains($0.offset) }.map(\.element)
    }

    static func unsqueezedShape(_ input: [Int], axes: [Int]) throws -> [Int] {
        let rank = input.count + axes.count
        if let bad = axes.first(where: { $0 < -rank || $0 >= rank }) {
            throw FoveaError(.invalidAttribute, "axis \(bad) is out of range: unsqueezing rank \(input.count) by \(axes.count) axes gives rank \(rank)")
        }
        let resolved = try Self.distinctAxes(axes, rank: rank)
        var remaining = input.makeIterator()
        return (0..<rank).map { resolved.contains($0) ? 1 : (remaining.next() ?? 1) }
    }

    /// Transpose's permutation, checked; `nil` reverses the axes.
    static func permutation(_ perm: [Int]?, rank: Int) throws -> [Int] {
        guard let perm else { return Array((0..<rank).reversed()) }
        guard perm.count == rank, perm.sorted() == Array(0..<rank) else {
            throw FoveaError(.invalidAttribute, "attribute 'perm' is \(perm); expected a permutation of 0..<\(rank)")
        }
        return perm
    }

    /// Resolves axes against `rank`, rejecting repeats.
    static func distinctAxes(_ axes: [Int], rank: Int) throws -> Set<Int> {
        var resolved = Set<Int>()
        for axis in axes {
            guard resolved.insert(try normalizedAxis(axis, rank: rank)).inserted else {
                throw FoveaError(.invalidAttribute, "axes \(axes) repeat axis \(axis)")
            }
        }
        return resolved
    }

    /// Pad's per-axis begin and end amounts over all axes of a rank-`rank` tensor.
    public static func resolvedPads(_ pads: [Int], axes: [Int]?, rank: Int) throws -> (begin: [Int], end: [Int]) {
        let axisList: [Int] = try axes.map { list in
            _ = try distinctAxes(list, rank: rank)
            return try list.map { try normalizedAxis($0, rank: rank) }
        } ?? Array(0..<rank)
        guard pads.count == 2 * axisList.count else {
            throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values; expected \(2 * axisList.count) (begin and end for \(axisList.count) axes)")
        }
        guard pads.allSatisfy({ $0.magnitude <= SpatialGeometry.attributeLimit }) else {
            throw FoveaError(.invalidAttribute, "'pads' \(pads) has a value beyond ±\(SpatialGeometry.attributeLimit)")
        }
        var begin = [Int](repeating: 0, count: rank), end = begin
        for (index, axis) in axisList.enumerated() {
            begin[axis] = pads[index]
            end[axis] = pads[axisList.count + index]
        }
        return (begin, end)
    }

    private static func paddedShape(_ x: TensorType, pads: [Int], value: Float, axes: [Int]?) throws -> [Int] {
        let (begin, end) = try resolvedPads(pads, axes: axes, rank: x.shape.count)
        let shape = try paddedDimensions(x.shape, begin: begin, end: end, pads: pads)
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.shapeMismatch, "pads \(pads) crop \(x.shape.shapeDescription) below zero size")
        }
        switch x.dataType {
        case .float32:
            break
        case .int64:
            guard value == value.rounded(), abs(value) < 9.2e18 else {
                throw FoveaError(.invalidAttribute, "pad value \(value) is not an int64")
            }
        case .bool:
            guard value == 0 || value == 1 else {
                throw FoveaError(.invalidAttribute, "pad value \(value) is not a bool (0 or 1)")
            }
        case .uint8, .int8, .int32:
            let range = x.dataType.quantizedRange ?? Int(Int32.min)...Int(Int32.max)
            guard let integer = Int(exactly: value), range.contains(integer) else {
                throw FoveaError(.invalidAttribute, "pad value \(value) is not a \(x.dataType)")
            }
        }
        return shape
    }

    /// The shape after reflect or edge padding: pads must be non-negative, and
    /// reflection needs each pad smaller than its axis (edge needs a non-empty axis).
    static func borderPaddedShape(_ shape: [Int], pads: [Int], mode: BorderPadMode) throws -> [Int] {
        guard pads.count == 2 * shape.count else {
            throw FoveaError(.invalidAttribute, "pads has \(pads.count) values; expected \(2 * shape.count) (begin and end for each of \(shape.count) axes)")
        }
        guard pads.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.invalidAttribute, "pads \(pads) has a negative value; \(mode.rawValue) padding only adds cells")
        }
        for axis in shape.indices where pads[axis] > 0 || pads[axis + shape.count] > 0 {
            let limit = mode == .reflect ? shape[axis] - 1 : (shape[axis] > 0 ? Int.max : 0)
            guard pads[axis] <= limit, pads[axis + shape.count] <= limit else {
                throw FoveaError(.invalidAttribute, "\(mode.rawValue) padding of axis \(axis) by \(pads[axis])/\(pads[axis + shape.count]) does not fit its size \(shape[axis]) (at most \(mode == .reflect ? "size - 1" : "any amount of a non-empty axis"))")
            }
        }
        return try paddedDimensions(shape, begin: Array(pads[..<shape.count]), end: Array(pads[shape.count...]), pads: pads)
    }

    /// `shape` grown by `begin` and `end` per axis. The pads come from the file,
    /// so the sums are checked for overflow and the result is bounded like any
    /// other output whose size the file chooses (``boundedShape(_:_:)``).
    private static func paddedDimensions(_ shape: [Int], begin: [Int], end: [Int], pads: [Int]) throws -> [Int] {
        let dims = try shape.indices.map { axis in
            let (grown, overflow1) = shape[axis].addingReportingOverflow(begin[axis])
            let (sum, overflow2) = grown.addingReportingOverflow(end[axis])
            guard !overflow1, !overflow2 else {
                throw FoveaError(.invalidAttribute, "pads \(pads) overflow axis \(axis) of \(shape.shapeDescription)")
            }
            return sum
        }
        return dims.allSatisfy({ $0 >= 0 }) ? try boundedShape(dims, "pads \(pads)") : dims
    }

    /// The axes Shape reports: `start` and `end` wrap when negative and are clamped to `0...rank`.
    static func shapeSlice(rank: Int, start: Int, end: Int?) -> Range<Int> {
        func clamp(_ value: Int) -> Int { Swift.min(rank, Swift.max(0, value < 0 ? value + rank : value)) }
        let lower = clamp(start), upper = clamp(end ?? rank)
        return lower..<Swift.max(lower, upper)
    }
}

/// MatMul's operands as (batch, rows, columns) with numpy's promotion of 1-D
/// operands: a 1-D A is a row `1×K`, a 1-D B a column `K×1`.
struct MatMulOperands {
    let lhsBatch: [Int], rhsBatch: [Int]
    let rows: Int, lhsColumns: Int, rhsRows: Int, columns: Int

    init(_ lhs: [Int], _ rhs: [Int]) {
        let a = lhs.count == 1 ? [1] + lhs : lhs
        let b = rhs.count == 1 ? rhs + [1] : rhs
        lhsBatch = Array(a.dropLast(2))
        rhsBatch = Array(b.dropLast(2))
        // Callers have checked that both ranks are >= 1, so both are now >= 2.
        rows = a.count >= 2 ? a[a.count - 2] : 1
        lhsColumns = a.last ?? 1
        rhsRows = b.count >= 2 ? b[b.count - 2] : 1
        columns = b.last ?? 1
    }
}

/// The product of `dims`, or `nil` if it overflows.
public func checkedProduct(_ dims: [Int]) -> Int? {
    var product = 1
    for dim in dims {
        let (next, overflow) = product.multipliedReportingOverflow(by: dim)
        if overflow { return nil }
        product = next
    }
    return product
}

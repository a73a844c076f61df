/// Where, Equal, Less, Greater, LessOrEqual, GreaterOrEqual, Not and Cast: elementwise operators that
/// produce or read booleans, or change the element type.
enum ReferenceLogical {
    /// `condition ? X : Y`, the three broadcast together.
    static func select(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let conditionTensor = try args.tensor(0), x = try args.tensor(1), y = try args.tensor(2)
        guard let condition = conditionTensor.bools else {
            throw FoveaError(.unsupported, "condition has data type \(conditionTensor.dataType); expected bool")
        }
        let c = conditionTensor.shape.broadcastStrides(to: outputShape)
        let xs = x.shape.broadcastStrides(to: outputShape), ys = y.shape.broadcastStrides(to: outputShape)
        func choose<Element>(_ a: [Element], _ b: [Element]) -> [Element] {
            var output: [Element] = []
            output.reserveCapacity(outputShape.elementCount)
            forEachPosition(outputShape) { position in
                output.append(condition[offset(position, c)] ? a[offset(position, xs)] : b[offset(position, ys)])
            }
            return output
        }
        switch (x.storage, y.storage) {
        case (.float32(let a), .float32(let b)): return Tensor(uncheckedShape: outputShape, storage: .float32(choose(a, b)))
        case (.int64(let a), .int64(let b)): return Tensor(uncheckedShape: outputShape, storage: .int64(choose(a, b)))
        case (.bool(let a), .bool(let b)): return Tensor(uncheckedShape: outputShape, storage: .bool(choose(a, b)))
        default: throw FoveaError(.shapeMismatch, "X has data type \(x.dataType) and Y \(y.dataType); expected the same")
        }
    }

    static func compare(_ comparison: Comparison, _ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        let aStrides = a.shape.broadcastStrides(to: outputShape), bStrides = b.shape.broadcastStrides(to: outputShape)
        func run<Element: Comparable>(_ x: [Element], _ y: [Element]) -> [Bool] {
            var output: [Bool] = []
            output.reserveCapacity(outputShape.elementCount)
            forEachPosition(outputShape) { position in
                let (l, r) = (x[offset(position, aStrides)], y[offset(position, bStrides)])
                switch comparison {
                case .equal: output.append(l == r)
                case .less: output.append(l < r)
                case .greater: output.append(l > r)
                case .lessOrEqual: output.append(l <= r)
                case .greaterOrEqual: output.append(l >= r)
                }
            }
            return output
        }
        let values: [Bool]
        switch (a.storage, b.storage) {
        case (.float32(let x), .float32(let y)): values = run(x, y)
        case (.int64(let x), .int64(let y)): values = run(x, y)
        case (.bool(let x), .bool(let y)) where comparison == .equal: values = run(x.map { $0 ? 1 : 0 }, y.map { $0 ? 1 : 0 })
        default: throw FoveaError(.unsupported, "\(comparison.typeName) compares two float32 or two int64 tensors; found \(a.dataType) and \(b.dataType)")
        }
        return Tensor(uncheckedShape: outputShape, storage: .bool(values))
    }

    static func not(_ args: ReferenceInputs) throws -> Tensor {
        let x = try args.tensor(0)
        guard let values = x.bools else { throw FoveaError(.unsupported, "X has data type \(x.dataType); Not expects bool") }
        return Tensor(uncheckedShape: x.shape, storage: .bool(values.map { !$0 }))
    }

    /// Float → int64 truncates toward zero, saturating at the int64 range (NaN gives 0:
    /// ONNX leaves both undefined); anything → bool is `!= 0` (NaN is true).
    static func cast(_ args: ReferenceInputs, to target: DataType) throws -> Tensor {
        let x = try args.tensor(0)
        let storage: Tensor.Storage
        switch (x.storage, target) {
        case (.float32(let v), .float32): storage = .float32(v)
        case (.float32(let v), .bool): storage = .bool(v.map { $0 != 0 })
        case (.float32(let v), _):
            // Toward zero, then wrapped to the target's width (as C and numpy do for
            // values that fit int64); NaN becomes 0. ONNX leaves out-of-range values undefined.
            storage = Self.integers(v.map { $0.isNaN ? 0 : Int64(exactly: $0.rounded(.towardZero)) ?? ($0 < 0 ? .min : .max) }, as: target)
        case (.bool(let v), .bool): storage = .bool(v)
        case (.bool(let v), .float32): storage = .float32(v.map { $0 ? 1 : 0 })
        case (.bool(let v), _): storage = Self.integers(v.map { $0 ? 1 : 0 }, as: target)
        default:
            let values = x.quantizedIntegers ?? []
            switch target {
            case .float32: storage = .float32(values.map { Float($0) })
            case .bool: storage = .bool(values.map { $0 != 0 })
            default: storage = Self.integers(values.map { Int64($0) }, as: target)
            }
        }
        return Tensor(uncheckedShape: x.shape, storage: storage)
    }

    /// Integers narrowed (wrapping) to an integer `target` type.
    private static func integers(_ values: [Int64], as target: DataType) -> Tensor.Storage {
        switch target {
        case .uint8: return .uint8(values.map { UInt8(truncatingIfNeeded: $0) })
        case .int8: return .int8(values.map { Int8(truncatingIfNeeded: $0) })
        case .int32: return .int32(values.map { Int32(truncatingIfNeeded: $0) })
        case .float32: return .float32(values.map { Float($0) })
        case .bool: return .bool(values.map { $0 != 0 })
        case .int64: return .int64(values)
        }
    }

    /// Calls `body` with every position of `shape` in row-major order.
    private static func forEachPosition(_ shape: [Int], _ body: ([Int]) -> Void) {
        guard shape.elementCount > 0 else { return }
        var position = [Int](repeating: 0, count: shape.count)
        for _ in 0..<shape.elementCount {
            body(position)
            position.advanceRowMajor(within: shape)
        }
    }

    private static func offset(_ position: [Int], _ strides: [Int]) -> Int {
        zip(position, strides).reduce(0) { $0 + $1.0 * $1.1 }
    }
}

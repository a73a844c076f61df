import FoveaCore

/// Shared plumbing of the SIMD backend's memory-bound families (pooling,
/// activations, binary ops, normalization, softmax, concat): input checks,
/// output allocation, vector loads and stores, and thread splitting.
enum SIMDStepSupport {
    /// The vector type of the memory-bound kernels.
    typealias Vector = SIMD16<Float>
    static let width = Vector.scalarCount

    /// Below this many elements of work per thread, a second thread costs
    /// more (wake-up, cache traffic) than it saves.
    static let minimumWorkPerThread = 1 << 15

    /// A read-only pointer shared by the chunks of `parallelFor`.
    struct SharedInput: @unchecked Sendable {
        let base: UnsafePointer<Float>
    }

    /// A pointer shared by the chunks of `parallelFor`; every chunk writes a
    /// disjoint part, so no two threads touch the same element.
    struct SharedOutput: @unchecked Sendable {
        let base: UnsafeMutablePointer<Float>
    }

    // MARK: Planning

    /// Whether every input is present and float32, there is exactly one
    /// output, and shape inference from the planned inputs gives the planned
    /// output type (so a step can trust the planned shapes).
    static func isPlannedFloatNode(_ node: NodeContext) -> Bool {
        guard node.outputTypes.count == 1, !node.inputTypes.isEmpty,
              node.inputTypes.allSatisfy({ $0?.dataType == .float32 }),
              node.outputTypes[0].dataType == .float32,
              let inferred = try? node.op.outputTypes(inputs: node.inputTypes, outputCount: 1)
        else { return false }
        return inferred == node.outputTypes
    }

    /// The planned shapes of all inputs, which must all be present.
    static func plannedShapes(_ node: NodeContext) throws -> [[Int]] {
        try node.inputTypes.enumerated().map { index, type in
            guard let type else {
                throw FoveaError(.invalidModel, "\(node.op.typeName): required input \(index) is missing")
            }
            return type.shape
        }
    }

    /// The planned output shape.
    static func plannedOutputShape(_ node: NodeContext) throws -> [Int] {
        guard let type = node.outputTypes.first else {
            throw FoveaError(.invalidModel, "\(node.op.typeName) has no output")
        }
        return type.shape
    }

    // MARK: Running

    /// The elements of input `index`, checked to be a present float32 tensor
    /// of the planned `shape` (the step's loops were sized for it).
    static func floats(_ inputs: [Tensor?], _ index: Int, shape: [Int], op: String) throws -> [Float] {
        guard index < inputs.count, let tensor = inputs[index] else {
            throw FoveaError(.invalidArgument, "\(op): required input \(index) is missing")
        }
        guard let values = tensor.floats else {
            throw FoveaError(.unsupported, "\(op): input \(index) has data type \(tensor.dataType); expected float32")
        }
        guard tensor.shape == shape else {
            throw FoveaError(.shapeMismatch, "\(op): input \(index) is \(tensor.shape.shapeDescription); the step was planned for \(shape.shapeDescription)")
        }
        return values
    }

    /// A new array of `count` floats, every one written by `fill`.
    static func makeFloats(count: Int, _ fill: (SharedOutput) -> Void) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0, let base = buffer.baseAddress {
                fill(SharedOutput(base: base))
            }
            initialized = count
        }
    }

    /// Calls `body` with a pointer to `values`' elements that chunks of
    /// `parallelFor` may share; an empty array gets a valid dummy pointer.
    static func withInput<Result>(_ values: [Float], _ body: (SharedInput) throws -> Result) rethrows -> Result {
        try values.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { return try body(SharedInput(base: base)) }
            var dummy: Float = 0
            return try withUnsafePointer(to: &dummy) { try body(SharedInput(base: $0)) }
        }
    }

    /// `context.parallelFor(count, body)` on only as many threads as `work`
    /// (elements touched in total) justifies.
    static func parallelFor(_ context: RunContext, count: Int, work: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let useful = Swift.max(1, Swift.min(context.threads, work / minimumWorkPerThread))
        let effective = useful == context.threads ? context : RunContext(threads: useful)
        effective.parallelFor(count, body)
    }

    // MARK: Vectors

    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>) -> Vector {
        UnsafeRawPointer(pointer).loadUnaligned(as: Vector.self)
    }

    @inline(__always)
    static func store(_ vector: Vector, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: vector, as: Vector.self)
    }

    /// The first `count` (< width) elements at `pointer`, the other lanes `fill`.
    @inline(__always)
    static func loadPartial(_ pointer: UnsafePointer<Float>, _ count: Int, fill: Float = 0) -> Vector {
        var vector = Vector(repeating: fill)
        for lane in 0..<count { vector[lane] = pointer[lane] }
        return vector
    }

    /// Stores the first `count` (< width) lanes of `vector`.
    @inline(__always)
    static func storePartial(_ vector: Vector, _ pointer: UnsafeMutablePointer<Float>, _ count: Int) {
        for lane in 0..<count { pointer[lane] = vector[lane] }
    }

    /// Applies `transform` to `count` elements, a vector at a time; the tail
    /// goes through the same vector function so every element is computed alike.
    @inline(__always)
    static func map(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, count: Int,
                    _ transform: (Vector) -> Vector) {
        var index = 0
        while index + width <= count {
            store(transform(load(source + index)), destination + index)
            index += width
        }
        if index < count {
            storePartial(transform(loadPartial(source + index, count - index)), destination + index, count - index)
        }
    }
}

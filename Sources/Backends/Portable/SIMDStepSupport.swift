import FoveaCore

/// Shared plumbing of the SIMD backend's memory-bound families (pooling,
/// activations, binary ops, normalization, softmax, concat): planned shapes,
/// thread splitting, workspace slices, vector loads and stores.
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
        init(_ view: TensorView) { base = UnsafePointer(view.floats) }
        init(base: UnsafePointer<Float>) { self.base = base }
    }

    /// A pointer shared by the chunks of `parallelFor`; every chunk writes a
    /// disjoint part, so no two threads touch the same element.
    struct SharedOutput: @unchecked Sendable {
        let base: UnsafeMutablePointer<Float>
        /// Elements from one image to the next (the view's batch stride).
        let batchStride: Int
        init(_ view: TensorView) { base = view.floats; batchStride = view.batchStride }
        init(base: UnsafeMutablePointer<Float>, batchStride: Int = 0) { self.base = base; self.batchStride = batchStride }

        /// The first element of image `n`.
        @inline(__always)
        func image(_ n: Int) -> UnsafeMutablePointer<Float> { base + n * batchStride }
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

    /// `context.parallelChunks(count, body)` on only as many threads as `work`
    /// (elements touched in total) justifies: ``chunkCount(threads:count:work:)`` chunks.
    static func parallelChunks(_ context: RunContext, count: Int, work: Int,
                               _ body: @Sendable (_ chunk: Int, _ range: Range<Int>) -> Void) {
        let useful = usefulThreads(context.threads, work: work)
        let effective = useful == context.threads ? context : RunContext(threads: useful)
        effective.parallelChunks(count, body)
    }

    /// ``parallelChunks(_:count:work:_:)`` without the chunk index.
    static func parallelFor(_ context: RunContext, count: Int, work: Int, _ body: @Sendable (Range<Int>) -> Void) {
        parallelChunks(context, count: count, work: work) { _, range in body(range) }
    }

    /// The most chunks ``parallelChunks(_:count:work:_:)`` makes with up to
    /// `threads` threads: how many per-chunk workspace slices a step needs.
    static func chunkCount(threads: Int, count: Int, work: Int) -> Int {
        Swift.max(1, Swift.min(usefulThreads(threads, work: work), count))
    }

    private static func usefulThreads(_ threads: Int, work: Int) -> Int {
        Swift.max(1, Swift.min(threads, work / minimumWorkPerThread))
    }

    // MARK: Workspace

    /// `count` floats rounded up to whole 64-byte lines, so that slices of a
    /// 64-byte aligned workspace stay aligned.
    static func alignedFloats(_ count: Int) -> Int {
        (Swift.max(0, count) + 15) / 16 * 16
    }

    /// Bytes of `slices` slices of `floats` floats each, every slice aligned.
    static func workspaceBytes(slices: Int, floats: Int) -> Int {
        slices * alignedFloats(floats) * MemoryLayout<Float>.stride
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

import XCTest
import FoveaCore
@testable import FoveaSIMD

/// How close a backend's output must be to the reference's: an element
/// passes when `|actual - expected| <= absolute + relative * |expected|`
/// (NaN must meet NaN; equal infinities pass).
struct Tolerance: CustomStringConvertible {
    var absolute: Float
    var relative: Float

    /// Bit-for-bit the same value (up to the sign of zero).
    static let exact = Tolerance(absolute: 0, relative: 0)

    func accepts(_ actual: Float, _ expected: Float) -> Bool {
        if expected.isNaN || actual.isNaN { return expected.isNaN && actual.isNaN }
        if actual == expected { return true }
        return abs(actual - expected) <= absolute + relative * abs(expected)
    }

    var description: String { "abs \(absolute) + rel \(relative)" }
}

/// Random tensors and one-node runs through the SIMD and the reference backends.
enum SIMDTestSupport {
    /// A float tensor of `shape` with values uniform in `range`.
    static func randomTensor(_ shape: [Int], in range: ClosedRange<Float> = -4...4,
                             using generator: inout SeededGenerator) -> Tensor {
        let values = (0..<shape.elementCount).map { _ in Float.random(in: range, using: &generator) }
        return Tensor(shape: shape, repeating: 0).replacingFloats(values)
    }

    /// `randomTensor` with some special values sprinkled in (NaN, ±inf, ±0,
    /// the largest finite floats), for operators whose edge behaviour is exact.
    static func randomTensorWithSpecials(_ shape: [Int], using generator: inout SeededGenerator) -> Tensor {
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        let values = (0..<shape.elementCount).map { _ -> Float in
            Int.random(in: 0..<20, using: &generator) == 0
                ? specials[Int.random(in: 0..<specials.count, using: &generator)]
                : Float.random(in: -4...4, using: &generator)
        }
        return Tensor(shape: shape, repeating: 0).replacingFloats(values)
    }

    /// The one-node context the planner would build for `op` on these inputs.
    static func nodeContext(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], outputCount: Int = 1) throws -> NodeContext {
        let types = inputs.map { TensorType($0.dataType, $0.shape) }
        let outputTypes = try op.outputTypes(inputs: types, outputCount: outputCount)
        let node = Node(name: "node", op: op, inputs: inputs.indices.map { "x\($0)" },
                        outputs: (0..<outputCount).map { "y\($0)" })
        var constantInputs: [Int: Tensor] = [:]
        for index in constants where index < inputs.count { constantInputs[index] = inputs[index] }
        return NodeContext(node: node, inputTypes: types, outputTypes: outputTypes, constantInputs: constantInputs)
    }

    /// Runs `op` on the SIMD backend (which must support it) and on the
    /// reference, and checks every element within `tolerance`. `description`
    /// names the case in failure messages. Returns the step's algorithm.
    @discardableResult
    static func check(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], tolerance: Tolerance,
                      threads: Int = 1, _ description: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let context = try nodeContext(op, inputs, constants: constants)
        let backend = SIMDBackend()
        guard backend.supports(context) else {
            XCTFail("\(description): the simd backend declines \(op.typeName) on \(inputs.map { $0.shape.shapeDescription })", file: file, line: line)
            return ""
        }
        let step = try backend.prepare(context)
        let actual = try step.run(inputs, planned: context, context: RunContext(threads: threads))
        let expected = try ReferenceBackend.evaluate(op, inputs: inputs, outputTypes: context.outputTypes)
        compare(actual, expected, tolerance: tolerance, "\(description) [\(step.algorithm), \(threads) thread(s)]", file: file, line: line)
        return step.algorithm
    }

    /// Checks that the outputs have the same shapes and elements within
    /// `tolerance`; reports the first few mismatches.
    static func compare(_ actual: [Tensor], _ expected: [Tensor], tolerance: Tolerance, _ description: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        guard actual.count == expected.count else {
            XCTFail("\(description): \(actual.count) outputs, expected \(expected.count)", file: file, line: line)
            return
        }
        for (a, e) in zip(actual, expected) {
            guard a.shape == e.shape, let av = a.floats, let ev = e.floats else {
                XCTFail("\(description): output \(a.dataType)[\(a.shape.shapeDescription)], expected \(e.dataType)[\(e.shape.shapeDescription)]", file: file, line: line)
                return
            }
            let bad = av.indices.filter { !tolerance.accepts(av[$0], ev[$0]) }
            if let first = bad.first {
                XCTFail("\(description): \(bad.count) of \(av.count) elements differ beyond \(tolerance); first at \(first): \(av[first]) vs reference \(ev[first])", file: file, line: line)
            }
        }
    }

    /// Runs the prepared step with 1 and with 2 threads and requires identical bits.
    static func checkThreadIndependence(_ op: Op, _ inputs: [Tensor], _ description: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let context = try nodeContext(op, inputs)
        let step = try SIMDBackend().prepare(context)
        let one = try step.run(inputs, planned: context, context: RunContext(threads: 1))
        let two = try step.run(inputs, planned: context, context: RunContext(threads: 2))
        let bits = { (tensors: [Tensor]) in tensors.map { ($0.floats ?? []).map(\.bitPattern) } }
        XCTAssertEqual(bits(one), bits(two), "\(description): 1 and 2 threads differ", file: file, line: line)
    }

    /// Whether the SIMD backend accepts `op` on inputs of these types.
    static func supports(_ op: Op, _ types: [TensorType], outputCount: Int = 1) -> Bool {
        guard let outputTypes = try? op.outputTypes(inputs: types, outputCount: outputCount) else { return false }
        let node = Node(name: "node", op: op, inputs: types.indices.map { "x\($0)" }, outputs: (0..<outputCount).map { "y\($0)" })
        return SIMDBackend().supports(NodeContext(node: node, inputTypes: types, outputTypes: outputTypes, constantInputs: [:]))
    }

    /// Prepares `op` on the SIMD backend (which must support it).
    static func prepare(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = []) throws -> (any PreparedStep, NodeContext) {
        let context = try nodeContext(op, inputs, constants: constants)
        return (try SIMDBackend().prepare(context), context)
    }

    /// The float elements' bit patterns, for exact comparisons (NaN included).
    static func bits(_ tensor: Tensor) -> [UInt32] {
        (tensor.floats ?? []).map(\.bitPattern)
    }

    /// Fails unless the two tensors have the same shape and the same bits
    /// (NaN payloads included); reports the first difference only.
    static func assertSameBits(_ actual: Tensor, _ expected: Tensor, _ message: @autoclosure () -> String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let a = bits(actual), e = bits(expected)
        guard actual.shape == expected.shape, a.count == e.count else {
            XCTFail("\(message()): shape \(actual.shape), expected \(expected.shape)", file: file, line: line)
            return
        }
        let differing = a.indices.filter { a[$0] != e[$0] }
        if let first = differing.first {
            XCTFail("\(message()): \(differing.count) of \(a.count) elements differ; first at \(first): \(Float(bitPattern: a[first])) vs \(Float(bitPattern: e[first]))",
                    file: file, line: line)
        }
    }

    /// A NaN with a payload no kernel produces: marks memory a step must not write.
    static let sentinel = Float(bitPattern: 0x7FC0_DEAD)

    /// Runs `step` on views built by hand, the way the executor hands them out:
    ///
    /// - `workspaceThreads`: the workspace is exactly `workspaceBytes(threads: workspaceThreads)`
    ///   bytes (default `threads`), 64-byte aligned, and `nil` when that is 0;
    /// - `outputBatchStride`: output 0's batch stride (strided slice of a larger
    ///   tensor); the elements between its images hold ``sentinel``, which
    ///   must survive the run;
    /// - `aliasInput`: output 0 shares the memory of that input (in-place run).
    ///
    /// Returns output 0's elements gathered into a tensor.
    static func runByHand(_ step: any PreparedStep, _ inputs: [Tensor?], planned node: NodeContext, threads: Int,
                          workspaceThreads: Int? = nil, outputBatchStride: Int? = nil, aliasInput: Int? = nil,
                          file: StaticString = #filePath, line: UInt = #line) throws -> Tensor {
        var blocks: [UnsafeMutableRawPointer] = []
        defer { blocks.forEach { $0.deallocate() } }
        func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            blocks.append(block)
            return block
        }
        let inputViews: [TensorView?] = inputs.map { tensor in
            guard let tensor else { return nil }
            let view = TensorView(base: allocate(Swift.max(1, tensor.count) * 4), dataType: tensor.dataType, shape: tensor.shape)
            view.copy(from: tensor)
            return view
        }
        let type = node.outputTypes[0]
        let images = type.shape.first ?? 1, per = type.shape.dropFirst().reduce(1, *)
        let stride = outputBatchStride ?? per
        let span = stride * Swift.max(0, images - 1) + per
        let output: TensorView
        if let aliasInput, let input = inputViews[aliasInput] {
            precondition(outputBatchStride == nil && input.count == type.shape.elementCount, "in place needs the same size")
            output = TensorView(base: input.base, dataType: type.dataType, shape: type.shape)
        } else {
            let base = allocate(Swift.max(1, span) * 4)
            base.initializeMemory(as: Float.self, repeating: sentinel, count: Swift.max(1, span))
            output = TensorView(base: base, dataType: type.dataType, shape: type.shape, batchStride: stride)
        }
        let bytes = step.workspaceBytes(threads: workspaceThreads ?? threads)
        let workspace = bytes > 0 ? allocate(bytes) : nil
        try step.run(StepBuffers(inputs: inputViews, outputs: [output], workspace: workspace), context: RunContext(threads: threads))
        if aliasInput == nil, images > 1, stride > per {
            let floats = output.floats
            var intact = true
            for n in 0..<(images - 1) {
                for i in (n * stride + per)..<((n + 1) * stride) where floats[i].bitPattern != sentinel.bitPattern { intact = false }
            }
            XCTAssertTrue(intact, "\(step.algorithm) wrote between the images of its strided output", file: file, line: line)
        }
        return output.copyToTensor()
    }

    /// A random element of `values`.
    static func pick<T>(_ values: [T], _ generator: inout SeededGenerator) -> T {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }
}

extension Tensor {
    /// The same shape with new float elements (count established by the caller).
    func replacingFloats(_ values: [Float]) -> Tensor {
        (try? Tensor(shape: shape, floats: values)) ?? self
    }
}

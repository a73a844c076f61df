import XCTest
import FoveaCore

/// How close a backend's output must be to the reference's: an element
/// passes when `|actual - expected| <= absolute + relative * |expected|`
/// (NaN must meet NaN; equal infinities pass).
public struct Tolerance: CustomStringConvertible, Sendable {
    public var absolute: Float
    public var relative: Float

    public init(absolute: Float, relative: Float) {
        self.absolute = absolute
        self.relative = relative
    }

    /// Bit-for-bit the same value (up to the sign of zero).
    public static let exact = Tolerance(absolute: 0, relative: 0)

    public func accepts(_ actual: Float, _ expected: Float) -> Bool {
        if expected.isNaN || actual.isNaN { return expected.isNaN && actual.isNaN }
        if actual == expected { return true }
        return abs(actual - expected) <= absolute + relative * abs(expected)
    }

    public var description: String { "abs \(absolute) + rel \(relative)" }
}

/// One operator on a backend against the reference backend: the shared harness
/// of every backend's tests (as ncnn's `test_layer` is). Besides comparing the
/// outputs, ``check(_:_:_:constants:tolerance:threads:_:file:line:)`` runs the
/// step the ways the executor may: with exactly its planned workspace, into a
/// strided output slice when it says it can, and over its input when it says
/// it may, and requires the same bits each time.
public enum LayerCheck {
    /// A float tensor of `shape` with values uniform in `range`.
    public static func randomTensor(_ shape: [Int], in range: ClosedRange<Float> = -4...4,
                                    using generator: inout SeededGenerator) -> Tensor {
        let values = (0..<shape.elementCount).map { _ in Float.random(in: range, using: &generator) }
        return Tensor(shape: shape, repeating: 0).replacingFloats(values)
    }

    /// `randomTensor` with some special values sprinkled in (NaN, ±inf, ±0,
    /// the largest finite floats), for operators whose edge behaviour is exact.
    public static func randomTensorWithSpecials(_ shape: [Int], using generator: inout SeededGenerator) -> Tensor {
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        let values = (0..<shape.elementCount).map { _ -> Float in
            Int.random(in: 0..<20, using: &generator) == 0
                ? specials[Int.random(in: 0..<specials.count, using: &generator)]
                : Float.random(in: -4...4, using: &generator)
        }
        return Tensor(shape: shape, repeating: 0).replacingFloats(values)
    }

    /// A random element of `values`.
    public static func pick<T>(_ values: [T], _ generator: inout SeededGenerator) -> T {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }

    /// The one-node context the planner would build for `op` on these inputs.
    public static func nodeContext(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], outputCount: Int = 1) throws -> NodeContext {
        let types = inputs.map { TensorType($0.dataType, $0.shape) }
        let outputTypes = try op.outputTypes(inputs: types, outputCount: outputCount)
        let node = Node(name: "node", op: op, inputs: inputs.indices.map { "x\($0)" },
                        outputs: (0..<outputCount).map { "y\($0)" })
        var constantInputs: [Int: Tensor] = [:]
        for index in constants where index < inputs.count { constantInputs[index] = inputs[index] }
        return NodeContext(node: node, inputTypes: types, outputTypes: outputTypes, constantInputs: constantInputs)
    }

    /// Whether `backend` accepts `op` on inputs of these types.
    public static func supports(_ backend: any Backend, _ op: Op, _ types: [TensorType], outputCount: Int = 1) -> Bool {
        guard let outputTypes = try? op.outputTypes(inputs: types, outputCount: outputCount) else { return false }
        let node = Node(name: "node", op: op, inputs: types.indices.map { "x\($0)" }, outputs: (0..<outputCount).map { "y\($0)" })
        return backend.supports(NodeContext(node: node, inputTypes: types, outputTypes: outputTypes, constantInputs: [:]))
    }

    /// Runs `op` on `backend` (which must support it) and on the reference,
    /// and checks every element within `tolerance`, or within the step's own
    /// ``PreparedStep/tolerance`` relative to the reference's largest
    /// magnitude when `tolerance` is `nil`. Then runs the step into a strided
    /// output and in place, as it declares it can, and requires the same bits.
    /// Returns the step's algorithm.
    @discardableResult
    public static func check(_ backend: any Backend, _ op: Op, _ inputs: [Tensor], constants: Set<Int> = [],
                             tolerance: Tolerance?, threads: Int = 1, _ description: String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let context = try nodeContext(op, inputs, constants: constants)
        guard backend.supports(context) else {
            XCTFail("\(description): the \(backend.name) backend declines \(op.typeName) on \(inputs.map { $0.shape.shapeDescription })", file: file, line: line)
            return ""
        }
        let step = try backend.prepare(context)
        let label = "\(description) [\(step.algorithm), \(threads) thread(s)]"
        let actual = try step.run(inputs, planned: context, context: RunContext(threads: threads))
        let expected = try ReferenceBackend.evaluate(op, inputs: inputs, outputTypes: context.outputTypes)
        if let tolerance {
            compare(actual, expected, tolerance: tolerance, label, file: file, line: line)
        } else {
            compareRelative(actual, expected, bound: step.tolerance, label, file: file, line: line)
        }
        guard context.outputTypes.count == 1, let contiguous = actual.first, contiguous.dataType == .float32 else { return step.algorithm }
        let type = context.outputTypes[0]
        let exactWorkspace = try runByHand(step, inputs, planned: context, threads: threads, file: file, line: line)
        assertSameBits(exactWorkspace, contiguous, "\(label): with exactly its planned workspace", file: file, line: line)
        if step.writesStridedOutput, type.shape.count >= 2, type.shape[0] > 1 {
            let per = type.shape.dropFirst().reduce(1, *)
            let strided = try runByHand(step, inputs, planned: context, threads: threads, outputBatchStride: per + 17, file: file, line: line)
            assertSameBits(strided, contiguous, "\(label): into a strided slice", file: file, line: line)
        }
        if let k = step.overwritableInput, k < inputs.count, inputs[k].shape == type.shape, inputs[k].dataType == type.dataType {
            let inPlace = try runByHand(step, inputs, planned: context, threads: threads, aliasInput: k, file: file, line: line)
            assertSameBits(inPlace, contiguous, "\(label): in place over input \(k)", file: file, line: line)
        }
        return step.algorithm
    }

    /// Checks that the outputs have the same shapes and elements within `tolerance`.
    public static func compare(_ actual: [Tensor], _ expected: [Tensor], tolerance: Tolerance, _ description: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard actual.count == expected.count else {
            XCTFail("\(description): \(actual.count) outputs, expected \(expected.count)", file: file, line: line)
            return
        }
        for (a, e) in zip(actual, expected) {
            guard a.shape == e.shape, let av = a.floats, let ev = e.floats else {
                XCTAssertEqual(a, e, "\(description): non-float outputs differ", file: file, line: line)
                continue
            }
            let bad = av.indices.filter { !tolerance.accepts(av[$0], ev[$0]) }
            if let first = bad.first {
                XCTFail("\(description): \(bad.count) of \(av.count) elements differ beyond \(tolerance); first at \(first): \(av[first]) vs reference \(ev[first])", file: file, line: line)
            }
        }
    }

    /// The parity rule: max |actual − expected| ≤ bound × the reference's largest magnitude; NaN where the reference has NaN.
    public static func compareRelative(_ actual: [Tensor], _ expected: [Tensor], bound: Float, _ description: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        for (a, e) in zip(actual, expected) {
            guard a.shape == e.shape, let av = a.floats, let ev = e.floats else {
                XCTAssertEqual(a, e, "\(description): outputs differ", file: file, line: line)
                continue
            }
            let scale = ev.filter(\.isFinite).map(abs).max() ?? 0
            for i in av.indices where !Tolerance(absolute: bound * scale, relative: 0).accepts(av[i], ev[i]) {
                XCTFail("\(description): element \(i) is \(av[i]), reference \(ev[i]), beyond the step's tolerance \(bound) × \(scale)", file: file, line: line)
                return
            }
        }
    }

    /// Fails unless the two tensors have the same shape and the same bits
    /// (NaN payloads included); reports the first difference only.
    public static func assertSameBits(_ actual: Tensor, _ expected: Tensor, _ message: @autoclosure () -> String,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let a = (actual.floats ?? []).map(\.bitPattern), e = (expected.floats ?? []).map(\.bitPattern)
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
    public static let sentinel = Float(bitPattern: 0x7FC0_DEAD)

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
    public static func runByHand(_ step: any PreparedStep, _ inputs: [Tensor?], planned node: NodeContext, threads: Int,
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
            let view = TensorView(base: allocate(Swift.max(1, tensor.count) * tensor.dataType.byteSize),
                                  dataType: tensor.dataType, shape: tensor.shape)
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

    /// Runs the prepared step with 1 and with 2 threads and requires identical bits.
    /// `constants` are the indices of the inputs that are initializers (a convolution's weights).
    public static func checkThreadIndependence(_ backend: any Backend, _ op: Op, _ inputs: [Tensor], constants: Set<Int> = [],
                                               _ description: String,
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        let context = try nodeContext(op, inputs, constants: constants)
        let step = try backend.prepare(context)
        let one = try step.run(inputs, planned: context, context: RunContext(threads: 1))
        let two = try step.run(inputs, planned: context, context: RunContext(threads: 2))
        let bits = { (tensors: [Tensor]) in tensors.map { ($0.floats ?? []).map(\.bitPattern) } }
        XCTAssertEqual(bits(one), bits(two), "\(description): 1 and 2 threads differ", file: file, line: line)
    }

    /// The pooling edge cases every backend must get exactly as the reference:
    ///
    /// - **Max pooling ignores NaN** (a comparison with NaN is false, so NaN
    ///   never wins); a window with nothing but NaN, −inf and padding gives
    ///   `-Float.greatestFiniteMagnitude`, as onnxruntime does. GlobalMaxPool
    ///   ignores NaN too and gives −inf for a plane of −inf.
    /// - **Average pooling propagates NaN and ±inf** (they are summed); a
    ///   window entirely in padding gives 0 (no inputs to divide by), or
    ///   0 with `count_include_pad`.
    public static func poolingSpecialCases() throws -> [(op: Op, input: Tensor, description: String)] {
        let x = try Tensor(shape: [1, 1, 2, 2], floats: [1, -.infinity, .nan, 4])
        let allPadding = PoolAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [], pads: [3, 3, 3, 3])
        var includePad = allPadding
        includePad.countIncludePad = true
        let pair = PoolAttributes(kernelShape: [1, 2], strides: [], dilations: [], pads: [])
        let special = try Tensor(shape: [1, 2, 1, 4], floats: [-.infinity, .nan, -.infinity, -.infinity, .nan, .nan, .infinity, 2])
        return [
            (.maxPool(allPadding), x, "max, windows entirely in padding"),
            (.averagePool(allPadding), x, "average, windows entirely in padding"),
            (.averagePool(includePad), x, "average, windows in padding, count_include_pad"),
            (.maxPool(pair), special, "max of -inf and NaN"),
            (.averagePool(pair), special, "average of NaN and inf"),
            (.globalMaxPool, special, "global max of NaN and -inf"),
            (.globalAveragePool, special, "global average of NaN and inf"),
        ]
    }
}

extension Tensor {
    /// The same shape with new float elements (count established by the caller).
    public func replacingFloats(_ values: [Float]) -> Tensor {
        (try? Tensor(shape: shape, floats: values)) ?? self
    }
}

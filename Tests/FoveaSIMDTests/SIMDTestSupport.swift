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
        let actual = try step.run(inputs, context: RunContext(threads: threads))
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
        let step = try SIMDBackend().prepare(try nodeContext(op, inputs))
        let one = try step.run(inputs, context: RunContext(threads: 1))
        let two = try step.run(inputs, context: RunContext(threads: 2))
        let bits = { (tensors: [Tensor]) in tensors.map { ($0.floats ?? []).map(\.bitPattern) } }
        XCTAssertEqual(bits(one), bits(two), "\(description): 1 and 2 threads differ", file: file, line: line)
    }

    /// Whether the SIMD backend accepts `op` on inputs of these types.
    static func supports(_ op: Op, _ types: [TensorType], outputCount: Int = 1) -> Bool {
        guard let outputTypes = try? op.outputTypes(inputs: types, outputCount: outputCount) else { return false }
        let node = Node(name: "node", op: op, inputs: types.indices.map { "x\($0)" }, outputs: (0..<outputCount).map { "y\($0)" })
        return SIMDBackend().supports(NodeContext(node: node, inputTypes: types, outputTypes: outputTypes, constantInputs: [:]))
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

import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// Gemm/MatMul sum in blocks of 1024 with FMA, unlike the reference's i-k-j
/// loop: max |Δ| ≤ 1e-4 × (1 + max |reference|).
let matrixTolerance: Float = 1e-4

final class MatrixTests: XCTestCase {
    let backend = SIMDBackend()

    /// Prepares `op`, runs it on 1 and 2 threads, and compares with the reference.
    func matrixCheck(_ op: Op, _ inputs: [Tensor?], constants: Set<Int> = [], _ message: String,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let types = inputs.map { $0.map { TensorType(.float32, $0.shape) } }
        let outputs = try op.outputTypes(inputs: types, outputCount: 1)
        let node = Node(name: "m", op: op, inputs: inputs.indices.map { "i\($0)" }, outputs: ["y"])
        var constantInputs: [Int: Tensor] = [:]
        for index in constants { constantInputs[index] = inputs[index] }
        let context = NodeContext(node: node, inputTypes: types, outputTypes: outputs, constantInputs: constantInputs)
        XCTAssertTrue(backend.supports(context), message, file: file, line: line)
        let reference = try ReferenceBackend.evaluate(op, inputs: inputs, outputTypes: outputs)[0]
        let scale = (reference.floats ?? []).reduce(Float(0)) { max($0, abs($1)) }
        var first: Tensor?
        let step = try backend.prepare(context)
        for threads in [1, 2] {
            let result = try step.run(inputs, planned: context, context: RunContext(threads: threads))[0]
            XCTAssertEqual(result.shape, reference.shape, message, file: file, line: line)
            let worst = zip(result.floats ?? [], reference.floats ?? []).reduce(Float(0)) { let d = abs($1.0 - $1.1); return d.isNaN ? .infinity : max($0, d) }
            XCTAssertLessThanOrEqual(worst, matrixTolerance * (1 + scale), "\(threads)t \(message)", file: file, line: line)
            if threads == 1 { first = result } else { XCTAssertEqual(result, first, "threads differ \(message)", file: file, line: line) }
        }
    }

    func testGemmRandomCases() throws {
        var rng = ConvRandom(seed: 77)
        for index in 0..<60 {
            let m = rng.pick([1, 2, 7, 8, 9, 17, 33]), n = rng.pick([1, 5, 31, 32, 33, 70]), k = rng.pick([1, 3, 16, 29, 300, 1100])
            let transA = rng.int(0...1) == 1, transB = rng.int(0...1) == 1
            let alpha = rng.pick([Float(1), 0.5, -2]), beta = rng.pick([Float(1), 0, 0.25])
            let a = try Tensor(shape: transA ? [k, m] : [m, k], floats: rng.floats(m * k))
            let b = try Tensor(shape: transB ? [n, k] : [k, n], floats: rng.floats(k * n))
            let cShape = rng.pick([nil, [n], [1, n], [m, 1], [m, n], []] as [[Int]?])
            let c = try cShape.map { try Tensor(shape: $0, floats: rng.floats($0.elementCount)) }
            let op = Op.gemm(GemmAttributes(alpha: alpha, beta: beta, transA: transA, transB: transB))
            let constants: Set<Int> = rng.int(0...1) == 1 ? [1] : []
            try matrixCheck(op, [a, b] + (c.map { [$0] } ?? []), constants: constants,
                            "case \(index): m \(m) n \(n) k \(k) tA \(transA) tB \(transB) alpha \(alpha) beta \(beta) C \(String(describing: cShape)) const \(constants)")
        }
    }

    func testMatMulShapes() throws {
        var rng = ConvRandom(seed: 78)
        let cases: [([Int], [Int])] = [
            ([5, 7], [7, 3]), ([1, 300], [300, 45]), ([33, 9], [9, 65]), ([2, 3, 4, 5], [2, 3, 5, 6]),
            ([1, 4, 5], [3, 5, 2]), ([3, 4, 5], [5, 2]), ([7], [7, 3]), ([4, 7], [7]), ([6], [6]), ([2, 1, 3, 4], [5, 4, 9]),
        ]
        for (aShape, bShape) in cases {
            let a = try Tensor(shape: aShape, floats: rng.floats(aShape.elementCount))
            let b = try Tensor(shape: bShape, floats: rng.floats(bShape.elementCount))
            try matrixCheck(.matMul, [a, b], "\(aShape) x \(bShape)")
            try matrixCheck(.matMul, [a, b], constants: [1], "\(aShape) x const \(bShape)")
        }
    }

    func testDeclinesAndRejectsBadInput() throws {
        let intContext = NodeContext(node: Node(name: "m", op: .matMul, inputs: ["a", "b"], outputs: ["y"]),
                                     inputTypes: [TensorType(.int64, [2, 3]), TensorType(.int64, [3, 2])],
                                     outputTypes: [TensorType(.int64, [2, 2])], constantInputs: [:])
        XCTAssertFalse(backend.supports(intContext))
        let mismatched = NodeContext(node: Node(name: "g", op: .gemm(GemmAttributes()), inputs: ["a", "b"], outputs: ["y"]),
                                     inputTypes: [TensorType(.float32, [2, 3]), TensorType(.float32, [4, 2])],
                                     outputTypes: [TensorType(.float32, [2, 2])], constantInputs: [:])
        XCTAssertFalse(backend.supports(mismatched))
        XCTAssertThrowsError(try backend.prepare(mismatched))

        let good = NodeContext(node: Node(name: "g", op: .gemm(GemmAttributes()), inputs: ["a", "b"], outputs: ["y"]),
                               inputTypes: [TensorType(.float32, [2, 3]), TensorType(.float32, [3, 4])],
                               outputTypes: [TensorType(.float32, [2, 4])], constantInputs: [:])
        let step = try backend.prepare(good)
        XCTAssertThrowsError(try step.run([Tensor(shape: [2, 4], repeating: 1), Tensor(shape: [3, 4], repeating: 1)],
                                          planned: good, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .shapeMismatch)
        }
        XCTAssertThrowsError(try step.run([Tensor(shape: [2, 3], repeating: 1)], planned: good, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
        }
    }
}

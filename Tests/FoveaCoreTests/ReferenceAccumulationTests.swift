import XCTest
@testable import FoveaCore

/// Issue 11, part 7: the reference backend sums in Double, so that a parity
/// failure points at the fast backend, not at the oracle. Each test compares
/// the reference with sums done here in Double, and shows that the same sums
/// in Float would miss by more than the fast backends' 1e-4 tolerance.
final class ReferenceAccumulationTests: XCTestCase {
    private func run(_ graph: Graph, _ feeds: [String: Tensor]) throws -> [String: Tensor] {
        try ExecutionPlan(graph: graph, backends: [ReferenceBackend()]).run(feeds, context: RunContext(threads: 1))
    }

    private func uniform(_ count: Int, in range: ClosedRange<Float>, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Float.random(in: range, using: &generator) }
    }

    private func relativeError(_ actual: Float, _ exact: Double) -> Double { abs(Double(actual) - exact) / abs(exact) }

    /// A Float running sum, as the reference used to do.
    private func floatSum(_ values: [Float]) -> Float { values.reduce(0, +) }

    /// The case at 2000×2000 (the CLI check at 8000×8000 runs in release):
    /// 3×3 Conv (bias 0.25), then GlobalAveragePool over 4 million outputs.
    func testConvThenGlobalAveragePoolOverALargeImage() throws {
        let side = 2000
        let input = uniform(side * side, in: 0.5...1.5, seed: 1)
        let weights = uniform(9, in: 0...0.25, seed: 2)
        let attributes = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])
        let graph = Graph(
            name: "conv-gap",
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(1), .known(side), .known(side)])],
            outputs: [ValueInfo(name: "g", dataType: .float32, dimensions: nil), ValueInfo(name: "c", dataType: .float32, dimensions: nil)],
            nodes: [Node(name: "conv", op: .conv(attributes), inputs: ["x", "W", "B"], outputs: ["c"]),
                    Node(name: "gap", op: .globalAveragePool, inputs: ["c"], outputs: ["g"])],
            initializers: ["W": Tensor(uncheckedShape: [1, 1, 3, 3], floats: weights), "B": Tensor(uncheckedShape: [1], floats: [0.25])])
        let outputs = try run(graph, ["x": Tensor(uncheckedShape: [1, 1, side, side], floats: input)])
        let conv = try XCTUnwrap(outputs["c"]?.floats)
        let pooled = try XCTUnwrap(outputs["g"]?.floats?.first)

        // Every Conv output, exactly in Double, then rounded once.
        var exactMean = 0.0
        var maxConvError = 0.0
        for row in 0..<side {
            for column in 0..<side {
                var sum = 0.25
                for kh in 0..<3 {
                    for kw in 0..<3 {
                        let r = row + kh - 1, c = column + kw - 1
                        if r >= 0, r < side, c >= 0, c < side { sum += Double(weights[kh * 3 + kw]) * Double(input[r * side + c]) }
                    }
                }
                exactMean += Double(Float(sum))
                maxConvError = max(maxConvError, abs(Double(conv[row * side + column]) - Double(Float(sum))))
            }
        }
        exactMean /= Double(side * side)
        XCTAssertEqual(maxConvError, 0, "each Conv output is the Double sum rounded once")
        XCTAssertLessThan(relativeError(pooled, exactMean), 1e-7, "reference \(pooled), exact \(exactMean)")
        // What a Float running sum gets: beyond the 1e-4 tolerance of the fast backends.
        let floatMean = floatSum(conv) / Float(side * side)
        XCTAssertGreaterThan(relativeError(floatMean, exactMean), 1e-4, "the case must be large enough to matter")
    }

    func testMatMulOverALongInnerDimension() throws {
        let inner = 1 << 21
        let a = uniform(inner, in: 0...1, seed: 3), b = uniform(inner, in: 0...1, seed: 4)
        let graph = Graph(
            name: "dot",
            inputs: [ValueInfo(name: "a", dataType: .float32, dimensions: [.known(1), .known(inner)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
            nodes: [Node(name: "matmul", op: .matMul, inputs: ["a", "b"], outputs: ["y"])],
            initializers: ["b": Tensor(uncheckedShape: [inner, 1], floats: b)])
        let y = try XCTUnwrap(try run(graph, ["a": Tensor(uncheckedShape: [1, inner], floats: a)])["y"]?.floats?.first)
        let exact = zip(a, b).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        XCTAssertLessThan(relativeError(y, exact), 1e-7, "reference \(y), exact \(exact)")
        XCTAssertGreaterThan(relativeError(zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }, exact), 1e-4)
    }

    func testAveragePoolAndSoftmaxSumInDouble() throws {
        let side = 1024
        let input = uniform(side * side, in: 0.5...1.5, seed: 5)
        let pool = PoolAttributes(kernelShape: [side, side], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
        let graph = Graph(
            name: "pool-softmax",
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(1), .known(side), .known(side)])],
            outputs: [ValueInfo(name: "p", dataType: .float32, dimensions: nil), ValueInfo(name: "s", dataType: .float32, dimensions: nil)],
            nodes: [Node(name: "pool", op: .averagePool(pool), inputs: ["x"], outputs: ["p"]),
                    Node(name: "flatten", op: .flatten(axis: 1), inputs: ["x"], outputs: ["f"]),
                    Node(name: "softmax", op: .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), inputs: ["f"], outputs: ["s"])])
        let outputs = try run(graph, ["x": Tensor(uncheckedShape: [1, 1, side, side], floats: input)])
        let exactMean = input.reduce(0.0) { $0 + Double($1) } / Double(input.count)
        XCTAssertLessThan(relativeError(try XCTUnwrap(outputs["p"]?.floats?.first), exactMean), 1e-7)
        // A Float running sum misses by several times more than the Double one is allowed.
        XCTAssertGreaterThan(relativeError(floatSum(input) / Float(input.count), exactMean), 2e-7)

        // Softmax over a million values: each probability with the Double sum.
        let softmax = try XCTUnwrap(outputs["s"]?.floats)
        let maximum = Double(input.max() ?? 0)
        let total = input.reduce(0.0) { $0 + exp(Double($1) - maximum) }
        var worst = 0.0
        for index in stride(from: 0, to: input.count, by: 997) {
            worst = max(worst, relativeError(softmax[index], exp(Double(input[index]) - maximum) / total))
        }
        XCTAssertLessThan(worst, 2e-7)
        XCTAssertEqual(softmax.reduce(0.0) { $0 + Double($1) }, 1, accuracy: 1e-5)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

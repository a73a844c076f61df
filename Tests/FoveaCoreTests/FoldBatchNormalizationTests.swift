import XCTest
@testable import FoveaCore
import FoveaTestSupport

/// FoldBatchNormalization: the rewritten graph computes what the original does.
final class FoldBatchNormalizationTests: XCTestCase {
    private let conv3x3 = Op.conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1]))

    private func tensor(_ shape: [Int], seed: UInt64, in range: ClosedRange<Float> = -1...1) -> Tensor {
        var generator = SeededGenerator(seed: seed)
        return Tensor(uncheckedShape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: range, using: &generator) })
    }

    /// x[N,2,5,5] -> conv -> BN -> (relu) -> y; `bias` chooses whether the Conv has one.
    private func graph(bias: Bool, relu: Bool, extraReader: Bool = false, batch: Int = 1) -> Graph {
        var nodes = [
            Node(name: "conv", op: conv3x3, inputs: ["x", "w"] + (bias ? ["b"] : []), outputs: ["c"]),
            Node(name: "bn", op: .batchNormalization(epsilon: 1e-3), inputs: ["c", "scale", "shift", "mean", "var"],
                 outputs: [relu ? "n" : "y"]),
        ]
        if relu { nodes.append(Node(name: "relu", op: .relu, inputs: ["n"], outputs: ["y"])) }
        var outputs = [ValueInfo(name: "y", dataType: .float32, dimensions: nil)]
        if extraReader {
            nodes.append(Node(name: "other", op: .clip(min: 0, max: 1), inputs: ["c"], outputs: ["z"]))
            outputs.append(ValueInfo(name: "z", dataType: .float32, dimensions: nil))
        }
        return Graph(
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(batch), .known(2), .known(5), .known(5)])],
            outputs: outputs, nodes: nodes,
            initializers: ["w": tensor([3, 2, 3, 3], seed: 1), "b": tensor([3], seed: 2),
                           "scale": tensor([3], seed: 3, in: 0.5...2), "shift": tensor([3], seed: 4),
                           "mean": tensor([3], seed: 5), "var": tensor([3], seed: 6, in: 0.1...3)])
    }

    private func assertSameOutputs(_ original: Graph, _ rewritten: Graph, batch: Int = 1,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let x = tensor([batch, 2, 5, 5], seed: 9, in: -3...3)
        let expected = try GraphInterpreter.evaluate(original, ["x": x])
        let actual = try ExecutionPlan(graph: rewritten, inputShapes: ["x": x.shape]).run(["x": x])
        for output in original.outputs {
            guard let e = expected[output.name]?.floats, let a = actual[output.name]?.floats else {
                return XCTFail("missing \(output.name)", file: file, line: line)
            }
            let scale = e.map { abs($0) }.max() ?? 1
            let error = zip(a, e).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(error, 1e-5 * max(1, scale), "\(output.name)", file: file, line: line)
        }
    }

    func testFoldsIntoConvWithAndWithoutBias() throws {
        for bias in [true, false] {
            let original = graph(bias: bias, relu: false)
            let folded = try GraphOptimizer.standard.optimize(original)
            XCTAssertEqual(folded.opHistogram, ["Conv": 1])
            XCTAssertEqual(folded.nodes[0].inputs.count, 3)
            // The original weights are no longer read, so they are gone.
            XCTAssertNil(folded.initializers["w"])
            XCTAssertNil(folded.initializers["scale"])
            try assertSameOutputs(original, folded)
        }
    }

    func testFoldThenFuseLeavesOneConvWithRelu() throws {
        let original = graph(bias: true, relu: true)
        let optimized = try GraphOptimizer.standard.optimize(original)
        XCTAssertEqual(optimized.nodes.count, 1)
        guard case .conv(let attributes) = optimized.nodes[0].op else { return XCTFail("not a Conv") }
        XCTAssertEqual(attributes.activation, .relu)
        try assertSameOutputs(original, optimized)
        try assertSameOutputs(graph(bias: true, relu: true, batch: 3), try GraphOptimizer.standard.optimize(graph(bias: true, relu: true, batch: 3)), batch: 3)
    }

    func testDoesNotFoldWhenTheRawConvOutputHasAnotherReader() throws {
        let original = graph(bias: true, relu: true, extraReader: true)
        let optimized = try GraphOptimizer.standard.optimize(original)
        XCTAssertEqual(optimized.opHistogram["BatchNormalization"], 1)
        // Nor is the Relu after the BatchNormalization fused into the Conv.
        XCTAssertEqual(optimized.opHistogram["Relu"], 1, "a Relu after a BatchNormalization is not fused")
        try assertSameOutputs(original, optimized)
    }

    func testDoesNotFoldNonConstantParameters() throws {
        var original = graph(bias: true, relu: false)
        original.initializers["mean"] = nil
        original.inputs.append(ValueInfo(name: "mean", dataType: .float32, dimensions: [.known(3)]))
        let optimized = try GraphOptimizer.standard.optimize(original)
        XCTAssertEqual(optimized.opHistogram["BatchNormalization"], 1)
    }

    func testSwitchedOff() throws {
        let original = graph(bias: true, relu: true)
        let kept = try GraphOptimizer(OptimizationOptions(foldBatchNormalization: false)).optimize(original)
        XCTAssertEqual(kept.opHistogram["BatchNormalization"], 1)
        let none = try GraphOptimizer(.none).optimize(original)
        XCTAssertEqual(none.opHistogram, ["Conv": 1, "BatchNormalization": 1, "Relu": 1])
    }
}

import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea

/// The integer passes (``FuseQuantizedConv``, ``FuseQuantizedDataMovement``) on
/// small QDQ graphs built in code, as onnxruntime's quantizer writes them: what
/// fuses, what must not, and the fused graph on every backend against the
/// reference backend's run of the same graph (bit for bit) and against the
/// literal QDQ graph (within one output step: QLinearConv's requantization
/// rounds once in float32 where the float graph rounds its sums).
final class QuantizedIntegerPassTests: XCTestCase {
    /// Builds a QDQ graph: every float activation between a QuantizeLinear and a DequantizeLinear.
    struct Builder {
        var nodes: [Node] = []
        var initializers: [String: Tensor] = [:]
        var generator = SeededGenerator(seed: 7)
        var count = 0

        mutating func name(_ prefix: String) -> String { count += 1; return "\(prefix)\(count)" }

        mutating func zeroPoint(_ value: Int, _ type: DataType) throws -> String {
            let n = name("z")
            initializers[n] = try Tensor(shape: [], storage: type == .int8 ? .int8([Int8(value)]) : .uint8([UInt8(value)]))
            return n
        }

        mutating func scalar(_ value: Float) throws -> String {
            let n = name("s")
            initializers[n] = try Tensor(shape: [], floats: [value])
            return n
        }

        /// `value → Q → DQ`; returns the DequantizeLinear's output.
        mutating func qdq(_ value: String, scale: Float, zeroPoint z: Int, type: DataType = .uint8) throws -> String {
            let s = try scalar(scale), zp = try zeroPoint(z, type)
            let q = name("q"), dq = name("dq")
            nodes.append(Node(name: q, op: .quantizeLinear(QuantizeLinearAttributes(outputType: type)), inputs: [value, s, zp], outputs: [q + "_out"]))
            nodes.append(Node(name: dq, op: .dequantizeLinear(axis: 1), inputs: [q + "_out", s, zp], outputs: [dq + "_out"]))
            return dq + "_out"
        }

        /// A Conv of `input` (dequantized at `inputScale`) with int8 weights behind a DequantizeLinear
        /// (per channel unless `perTensor`) and an int32 bias at `inputScale · weightScale`;
        /// then `activation` if any. Returns the float output and the Conv's name.
        mutating func conv(_ input: String, inputScale: Float, channels: Int, outputs: Int, kernel: Int = 3, pad: Int = 1,
                           stride: Int = 1, group: Int = 1, perTensor: Bool = false, weightZeroPoint: Int8 = 0,
                           activation: Op? = nil, bias: Bool = true) throws -> (value: String, conv: String) {
            let k = channels / group * kernel * kernel
            let weights = (0..<(outputs * k)).map { _ in Int8.random(in: -127...127, using: &generator) }
            let scales = perTensor ? [Float(0.004)] : (0..<outputs).map { _ in Float.random(in: 0.002...0.006, using: &generator) }
            let w = name("w"), s = name("sw"), z = name("zw"), dq = name("dqw")
            initializers[w] = try Tensor(shape: [outputs, channels / group, kernel, kernel], storage: .int8(weights))
            initializers[s] = try Tensor(shape: perTensor ? [] : [outputs], floats: scales)
            initializers[z] = try Tensor(shape: perTensor ? [] : [outputs], storage: .int8([Int8](repeating: weightZeroPoint, count: scales.count)))
            nodes.append(Node(name: dq, op: .dequantizeLinear(axis: 0), inputs: [w, s, z], outputs: [dq + "_out"]))
            var inputs = [input, dq + "_out"]
            if bias {
                let b = name("b"), sb = name("sb"), dqb = name("dqb")
                initializers[b] = try Tensor(shape: [outputs], storage: .int32((0..<outputs).map { _ in Int32.random(in: -3000...3000, using: &generator) }))
                initializers[sb] = try Tensor(shape: [outputs], floats: (0..<outputs).map { inputScale * scales[perTensor ? 0 : $0] })
                nodes.append(Node(name: dqb, op: .dequantizeLinear(axis: 0), inputs: [b, sb], outputs: [dqb + "_out"]))
                inputs.append(dqb + "_out")
            }
            let c = name("conv")
            let attributes = ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                            pads: [pad, pad, pad, pad], group: group)
            nodes.append(Node(name: c, op: .conv(attributes), inputs: inputs, outputs: [c + "_out"]))
            guard let activation else { return (c + "_out", c) }
            let a = name("act")
            nodes.append(Node(name: a, op: activation, inputs: [c + "_out"], outputs: [a + "_out"]))
            return (a + "_out", c)
        }

        mutating func node(_ op: Op, _ inputs: [String]) -> String {
            let n = name(op.typeName)
            nodes.append(Node(name: n, op: op, inputs: inputs, outputs: [n + "_out"]))
            return n + "_out"
        }

        func graph(input: [Int], output: String) -> Graph {
            Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: input.map { .known($0) })],
                  outputs: [ValueInfo(name: output, dataType: .float32, dimensions: nil)], nodes: nodes, initializers: initializers)
        }
    }

    private let pool = Op.maxPool(PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0]))

    /// A SqueezeNet fire module and its surroundings in QDQ form, uint8 or int8 activations.
    private func fireGraph(_ type: DataType = .uint8) throws -> Graph {
        var b = Builder()
        let z = type == .int8 ? -128 : 0, zx = type == .int8 ? 0 : 128
        let x = try b.qdq("x", scale: 0.02, zeroPoint: zx, type: type)
        let stem = try b.conv(x, inputScale: 0.02, channels: 3, outputs: 16, stride: 2, activation: .relu)
        let stemQ = try b.qdq(stem.value, scale: 0.03, zeroPoint: z, type: type)
        let pooled = try b.qdq(b.node(pool, [stemQ]), scale: 0.03, zeroPoint: z, type: type)
        let squeeze = try b.conv(pooled, inputScale: 0.03, channels: 16, outputs: 8, kernel: 1, pad: 0, perTensor: true)
        let squeezeQ = try b.qdq(squeeze.value, scale: 0.05, zeroPoint: zx, type: type)
        // The squeeze output's DequantizeLinear feeds both expand convolutions.
        let left = try b.conv(squeezeQ, inputScale: 0.05, channels: 8, outputs: 12, kernel: 1, pad: 0, activation: .clip(min: 0, max: 6))
        let right = try b.conv(squeezeQ, inputScale: 0.05, channels: 8, outputs: 12, activation: .relu)
        // The left branch has a finer scale than the Concat's, as onnxruntime's calibration gives it.
        let leftQ = try b.qdq(left.value, scale: 0.025, zeroPoint: z, type: type)
        let rightQ = try b.qdq(right.value, scale: 0.04, zeroPoint: z, type: type)
        let joined = try b.qdq(b.node(.concat(axis: 1), [leftQ, rightQ]), scale: 0.04, zeroPoint: z, type: type)
        let depthwise = try b.conv(joined, inputScale: 0.04, channels: 24, outputs: 24, group: 24, activation: .relu)
        let depthwiseQ = try b.qdq(depthwise.value, scale: 0.03, zeroPoint: z, type: type)
        let mean = try b.qdq(b.node(.globalAveragePool, [depthwiseQ]), scale: 0.01, zeroPoint: z, type: type)
        let flat = try b.qdq(b.node(.flatten(axis: 1), [mean]), scale: 0.01, zeroPoint: z, type: type)
        return b.graph(input: [2, 3, 23, 23], output: flat)
    }

    private func input(_ shape: [Int], seed: UInt64 = 5) throws -> Tensor {
        var generator = SeededGenerator(seed: seed)
        return try Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: -2.6...2.6, using: &generator) })
    }

    func testFireModuleRunsIntegerFromTheFirstConvToTheLast() throws {
        for type in [DataType.uint8, .int8] {
            let optimized = try GraphOptimizer.standard.optimize(fireGraph(type))
            XCTAssertEqual(optimized.nodes.map(\.op.typeName),
                           ["QuantizeLinear", "QuantizedConv", "MaxPool", "QuantizedConv", "QuantizedConv", "QuantizedConv", "Concat",
                            "QuantizedConv", "QLinearGlobalAveragePool", "Flatten", "DequantizeLinear"], "\(type)")
            // No float weights are left: the int8 originals feed the integer steps.
            XCTAssertTrue(optimized.initializers.values.allSatisfy { $0.dataType != .float32 || $0.count == 1 }, "\(type)")
        }
    }

    func testFusedGraphIsBitExactOnEveryBackendAndWithinOneStepOfTheLiteralGraph() throws {
        for type in [DataType.uint8, .int8] {
            let graph = try fireGraph(type)
            let x = try input([2, 3, 23, 23])
            let literal = try XCTUnwrap(GraphInterpreter.evaluate(graph, ["x": x])[graph.outputs[0].name]?.floats)
            var oracle: [Float]?
            for backend in ["reference", "kernels", "simd"] {
                let model = try Model(graph: graph, configuration: ModelConfiguration(backends: [backend]))
                let plan = try model.plan(inputShapes: ["x": x.shape])
                XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), backend)
                if backend == "kernels" {
                    // Every step runs on the kernels: integer steps, a quantize at the input and a dequantize at the output.
                    XCTAssertEqual(plan.assignments.filter { $0.backend != "kernels" }.map(\.node), [], "\(type)")
                    XCTAssertTrue(plan.assignments.filter { $0.opType == "QuantizedConv" }.allSatisfy { $0.algorithm.hasPrefix("int8") })
                }
                for threads in [1, 2] {
                    let y = try XCTUnwrap(try plan.run(["x": x], context: RunContext(threads: threads))[graph.outputs[0].name]?.floats)
                    if let oracle { XCTAssertEqual(y, oracle, "\(type) \(backend) threads \(threads)") } else { oracle = y }
                    // One output step is 0.01.
                    for (a, e) in zip(y, literal) { XCTAssertEqual(a, e, accuracy: 0.0101, "\(type) \(backend)") }
                }
            }
            XCTAssertGreaterThan(Set(oracle ?? []).count, 4, "a non-trivial case")
        }
    }

    func testNonZeroWeightZeroPointStaysFloat() throws {
        var b = Builder()
        let x = try b.qdq("x", scale: 0.02, zeroPoint: 128)
        let conv = try b.conv(x, inputScale: 0.02, channels: 3, outputs: 4, weightZeroPoint: 3)
        let y = try b.qdq(conv.value, scale: 0.05, zeroPoint: 128)
        let optimized = try GraphOptimizer.standard.optimize(b.graph(input: [1, 3, 6, 6], output: y))
        XCTAssertEqual(optimized.nodes.map(\.op.typeName), ["QuantizeLinear", "DequantizeLinear", "Conv", "QuantizeLinear", "DequantizeLinear"])
    }

    func testConcatOfDifferentScalesStaysFloat() throws {
        var b = Builder()
        let x = try b.qdq("x", scale: 0.02, zeroPoint: 128)
        let left = try b.qdq(b.node(.relu, [x]), scale: 0.02, zeroPoint: 0)
        let right = try b.qdq(b.node(.relu, [x]), scale: 0.03, zeroPoint: 0)
        let joined = try b.qdq(b.node(.concat(axis: 1), [left, right]), scale: 0.03, zeroPoint: 0)
        let optimized = try GraphOptimizer.standard.optimize(b.graph(input: [1, 3, 4, 4], output: joined))
        let concat = try XCTUnwrap(optimized.nodes.first { $0.op.typeName == "Concat" })
        let types = try optimized.inferTypes()
        XCTAssertEqual(concat.inputs.map { types[$0]?.dataType }, [.float32, .float32])
    }

    func testDequantizedInputWithAFloatReaderKeepsItsDequantize() throws {
        // The DequantizeLinear of x feeds the Conv and a Sigmoid: the Conv becomes integer, the DequantizeLinear stays for the Sigmoid.
        var b = Builder()
        let x = try b.qdq("x", scale: 0.02, zeroPoint: 128)
        let conv = try b.conv(x, inputScale: 0.02, channels: 3, outputs: 3, kernel: 1, pad: 0)
        let y = try b.qdq(conv.value, scale: 0.05, zeroPoint: 128)
        let sum = b.node(.add, [y, b.node(.sigmoid, [x])])
        let graph = b.graph(input: [1, 3, 5, 5], output: sum)
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes.map(\.op.typeName), ["QuantizeLinear", "DequantizeLinear", "QuantizedConv", "DequantizeLinear", "Sigmoid", "Add"])
        let feeds = ["x": try input([1, 3, 5, 5])]
        let literal = try XCTUnwrap(GraphInterpreter.evaluate(graph, feeds)[sum]?.floats)
        let fused = try XCTUnwrap(GraphInterpreter.evaluate(optimized, feeds)[sum]?.floats)
        for (a, e) in zip(fused, literal) { XCTAssertEqual(a, e, accuracy: 0.0501) }
    }

    func testConvOutputWithASecondReaderStaysFloat() throws {
        var b = Builder()
        let x = try b.qdq("x", scale: 0.02, zeroPoint: 128)
        let conv = try b.conv(x, inputScale: 0.02, channels: 3, outputs: 3, kernel: 1, pad: 0)
        let y = try b.qdq(conv.value, scale: 0.05, zeroPoint: 128)
        let sum = b.node(.add, [y, conv.value])
        let optimized = try GraphOptimizer.standard.optimize(b.graph(input: [1, 3, 5, 5], output: sum))
        XCTAssertFalse(optimized.nodes.contains { $0.op.typeName == "QuantizedConv" })
        XCTAssertTrue(optimized.nodes.contains { $0.op.typeName == "Conv" })
    }

    func testFusionOffLeavesTheLiteralGraph() throws {
        let optimized = try GraphOptimizer(OptimizationOptions(fuseActivations: false)).optimize(fireGraph())
        XCTAssertFalse(optimized.nodes.contains { $0.op.typeName == "QuantizedConv" })
        XCTAssertEqual(optimized.nodes.filter { $0.op.typeName == "Conv" }.count, 5)
    }

    func testReluAndClipBecomeClampsOfTheQuantizedOutput() throws {
        var b = Builder()
        let x = try b.qdq("x", scale: 0.02, zeroPoint: 128)
        // A Clip whose range cuts inside the output's: the clamp must hold the bounds exactly.
        let conv = try b.conv(x, inputScale: 0.02, channels: 3, outputs: 4, activation: .clip(min: -0.5, max: 0.8))
        let y = try b.qdq(conv.value, scale: 0.01, zeroPoint: 100)
        let graph = b.graph(input: [1, 3, 6, 6], output: y)
        let optimized = try GraphOptimizer.standard.optimize(graph)
        guard case .quantizedConv(let attributes)? = optimized.nodes.first(where: { $0.op.typeName == "QuantizedConv" })?.op else {
            return XCTFail("no QuantizedConv in \(optimized.nodes.map(\.op.typeName))")
        }
        XCTAssertEqual(attributes.outputClamp, 50...180)
        let feeds = ["x": try input([1, 3, 6, 6])]
        let fused = try XCTUnwrap(GraphInterpreter.evaluate(optimized, feeds)[y]?.floats)
        XCTAssertEqual(fused.min() ?? 0, -0.5, accuracy: 1e-6)
        XCTAssertEqual(fused.max() ?? 0, 0.8, accuracy: 1e-6)
    }

    func testQLinearConvBecomesTheSameIntegerStep() throws {
        var generator = SeededGenerator(seed: 9)
        let weights = (0..<(6 * 4 * 3 * 3)).map { _ in Int8.random(in: -127...127, using: &generator) }
        let attributes = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])
        let graph = Graph(
            inputs: [ValueInfo(name: "x", dataType: .uint8, dimensions: [.known(2), .known(4), .known(7), .known(7)])],
            outputs: [ValueInfo(name: "y", dataType: .uint8, dimensions: nil)],
            nodes: [Node(name: "qconv", op: .qLinearConv(attributes), inputs: ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"], outputs: ["y"])],
            initializers: [
                "sx": try Tensor(shape: [], floats: [0.02]), "zx": try Tensor(shape: [], storage: .uint8([120])),
                "w": try Tensor(shape: [6, 4, 3, 3], storage: .int8(weights)),
                "sw": try Tensor(shape: [6], floats: [0.003, 0.004, 0.005, 0.006, 0.002, 0.004]),
                "zw": try Tensor(shape: [6], storage: .int8([0, 0, 0, 0, 0, 0])),
                "sy": try Tensor(shape: [], floats: [0.05]), "zy": try Tensor(shape: [], storage: .uint8([128])),
                "b": try Tensor(shape: [6], storage: .int32([100, -200, 300, 0, 50, -1000])),
            ])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes.map(\.op.typeName), ["QuantizedConv"])
        let x = try Tensor(shape: [2, 4, 7, 7], storage: .uint8((0..<(2 * 4 * 49)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        let literal = try XCTUnwrap(GraphInterpreter.evaluate(graph, ["x": x])["y"]?.uint8s)
        for backend in ["reference", "kernels"] {
            let plan = try Model(graph: graph, configuration: ModelConfiguration(backends: [backend])).plan(inputShapes: ["x": x.shape])
            XCTAssertEqual(plan.assignments.map(\.backend), [backend])
            XCTAssertEqual(try plan.run(["x": x])["y"]?.uint8s, literal, backend)
        }
        XCTAssertGreaterThan(Set(literal).count, 10)
    }

    /// A QuantizedConv with a non-zero weight zero point (built directly: the pass never makes one)
    /// is declined by the kernels, whose int8 tiles need symmetric weights, and runs on the reference.
    func testKernelsDeclineAsymmetricWeightsAndTheReferenceRunsThem() throws {
        let attributes = QuantizedConvAttributes(
            convolution: ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0]),
            inputScale: 0.02, inputZeroPoint: 128, weightScales: [0.01], weightZeroPoints: [3],
            outputScale: 0.05, outputZeroPoint: 128, outputType: .uint8)
        let graph = Graph(
            inputs: [ValueInfo(name: "x", dataType: .uint8, dimensions: [.known(1), .known(2), .known(3), .known(3)])],
            outputs: [ValueInfo(name: "y", dataType: .uint8, dimensions: nil)],
            nodes: [Node(name: "qconv", op: .quantizedConv(attributes), inputs: ["x", "w"], outputs: ["y"])],
            initializers: ["w": try Tensor(shape: [2, 2, 1, 1], storage: .int8([5, -7, 100, -128]))])
        let plan = try Model(graph: graph, configuration: ModelConfiguration(backends: ["kernels"])).plan(inputShapes: ["x": [1, 2, 3, 3]])
        XCTAssertEqual(plan.assignments.map(\.backend), ["reference"])
        let x = try Tensor(shape: [1, 2, 3, 3], storage: .uint8((0..<18).map { UInt8($0 * 14) }))
        XCTAssertEqual(try plan.run(["x": x])["y"]?.uint8s, try GraphInterpreter.evaluate(graph, ["x": x])["y"]?.uint8s)
    }
}

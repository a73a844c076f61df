import XCTest
import CFoveaKernels
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// What the kernels backend cannot run it declines (so the planner gives the
/// node to another backend), and a C kernel's error status reaches the
/// caller as a ``FoveaError`` that says which operator failed and why.
final class KernelsBadInputTests: XCTestCase {
    private let backend = KernelsTestSupport.backend

    private func conv(_ x: [Int], _ w: [Int], _ attributes: ConvAttributes, x xType: DataType = .float32, w wType: DataType = .float32,
                      constantWeights: Bool = true) -> NodeContext {
        let output = (try? Op.conv(attributes).outputTypes(inputs: [TensorType(xType, x), TensorType(wType, w)], outputCount: 1))
            ?? [TensorType(.float32, [1])]
        let weights = wType == .float32 ? Tensor(shape: w, repeating: 0.5) : (try? Tensor(shape: w, int64s: [Int64](repeating: 1, count: w.elementCount)))
        return NodeContext(node: Node(name: "conv", op: .conv(attributes), inputs: ["x", "w"], outputs: ["y"]),
                           inputTypes: [TensorType(xType, x), TensorType(wType, w)], outputTypes: output,
                           constantInputs: constantWeights ? [1: weights!] : [:])
    }

    func testDeclinesConvolutionsItCannotRun() throws {
        let twoD = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])
        XCTAssertTrue(backend.supports(conv([1, 4, 9, 9], [8, 4, 3, 3], twoD)), "the control case")
        XCTAssertFalse(backend.supports(conv([1, 4, 9, 9], [8, 4, 3, 3], twoD, constantWeights: false)), "weights given at run time")
        XCTAssertThrowsError(try backend.prepare(conv([1, 4, 9, 9], [8, 4, 3, 3], twoD, constantWeights: false))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .unsupported)
        }
        XCTAssertFalse(backend.supports(conv([1, 4, 9, 9], [8, 4, 3, 3], twoD, x: .int64)), "int64 input")
        XCTAssertFalse(backend.supports(conv([1, 4, 9, 9], [8, 4, 3, 3], twoD, w: .int64)), "int64 weights")
        let oneD = ConvAttributes(kernelShape: [3], strides: [1], dilations: [1], pads: [0, 0])
        XCTAssertFalse(backend.supports(conv([1, 4, 9], [8, 4, 3], oneD)), "1-D convolution")
        let threeD = ConvAttributes(kernelShape: [3, 3, 3], strides: [1, 1, 1], dilations: [1, 1, 1], pads: [0, 0, 0, 0, 0, 0])
        XCTAssertFalse(backend.supports(conv([1, 4, 5, 5, 5], [8, 4, 3, 3, 3], threeD)), "3-D convolution")
        // A bias of the wrong length.
        let badBias = NodeContext(node: Node(name: "conv", op: .conv(twoD), inputs: ["x", "w", "b"], outputs: ["y"]),
                                  inputTypes: [TensorType(.float32, [1, 4, 9, 9]), TensorType(.float32, [8, 4, 3, 3]), TensorType(.float32, [7])],
                                  outputTypes: [TensorType(.float32, [1, 8, 9, 9])],
                                  constantInputs: [1: Tensor(shape: [8, 4, 3, 3], repeating: 1)])
        XCTAssertFalse(backend.supports(badBias), "bias of 7 for 8 outputs")
        // An output shape that is not the convolution's.
        let badOutput = NodeContext(node: Node(name: "conv", op: .conv(twoD), inputs: ["x", "w"], outputs: ["y"]),
                                    inputTypes: [TensorType(.float32, [1, 4, 9, 9]), TensorType(.float32, [8, 4, 3, 3])],
                                    outputTypes: [TensorType(.float32, [1, 8, 7, 7])],
                                    constantInputs: [1: Tensor(shape: [8, 4, 3, 3], repeating: 1)])
        XCTAssertFalse(backend.supports(badOutput), "output planned as 7x7 for a padded 9x9 convolution")
    }

    func testDeclinesOtherOperatorsAndTypes() {
        let f = { (shape: [Int]) in TensorType(.float32, shape) }
        // Binary operators up to rank 6 (FOVEA_ELEMENTWISE_MAX_RANK).
        XCTAssertTrue(KernelsTestSupport.supports(.add, [f([1, 2, 1, 2, 1, 2]), f([2])]), "rank 6")
        XCTAssertFalse(KernelsTestSupport.supports(.add, [f([1, 2, 1, 2, 1, 2, 1]), f([2])]), "rank 7")
        XCTAssertFalse(KernelsTestSupport.supports(.mul, [f([2]), f([1, 1, 1, 1, 1, 1, 2])]), "rank 7 on the right")
        XCTAssertFalse(KernelsTestSupport.supports(.add, [TensorType(.int64, [3]), TensorType(.int64, [3])]), "int64 add")
        XCTAssertFalse(KernelsTestSupport.supports(.div, [f([3]), TensorType(.int64, [3])]), "mixed types")
        XCTAssertFalse(KernelsTestSupport.supports(.sub, [f([3]), f([4])]), "shapes that do not broadcast")
        XCTAssertFalse(KernelsTestSupport.supports(.relu, [TensorType(.int64, [2, 3])]), "int64 relu")
        XCTAssertFalse(KernelsTestSupport.supports(.sigmoid, [TensorType(.bool, [2, 3])]), "bool sigmoid")
        XCTAssertFalse(KernelsTestSupport.supports(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [TensorType(.int64, [2, 3])]))
        XCTAssertFalse(KernelsTestSupport.supports(.softmax(SoftmaxAttributes(axis: 2, coercedTo2D: false)), [f([2, 3])]), "axis out of range")
        // Operators the backend has no kernel for: another backend takes them.
        for (op, inputs) in [(Op.batchNormalization(epsilon: 1e-5), [f([1, 2, 3, 3]), f([2]), f([2]), f([2]), f([2])]),
                             (.tile(repeats: [1, 2]), [f([2, 3])]), (.prelu, [f([2, 3]), f([3])]), (.sum, [f([3]), f([3]), f([3])])] {
            XCTAssertFalse(KernelsTestSupport.supports(op, inputs), "\(op.typeName)")
            let context = try? LayerCheck.nodeContext(op, inputs.map { Tensor(shape: $0.shape, repeating: 1) })
            if let context {
                XCTAssertThrowsError(try backend.prepare(context)) { error in
                    XCTAssertEqual((error as? FoveaError)?.kind, .unsupported, "\(op.typeName)")
                    XCTAssertTrue("\(error)".contains("kernels backend cannot run \(op.typeName)"), "\(error)")
                }
            }
        }
    }

    /// Every C status other than OK becomes a FoveaError naming the call and the C description.
    func testStatusesBecomeFoveaErrors() {
        let cases: [(fovea_status, FoveaError.Kind)] = [
            (FOVEA_STATUS_NULL_POINTER, .invalidArgument), (FOVEA_STATUS_INVALID_PARAMETER, .shapeMismatch),
            (FOVEA_STATUS_TOO_LARGE, .invalidArgument), (FOVEA_STATUS_UNKNOWN_ISA, .unsupported),
            (FOVEA_STATUS_UNSUPPORTED_ISA, .unsupported), (FOVEA_STATUS_BUFFER_TOO_SMALL, .invalidArgument),
            (FOVEA_STATUS_PACKING_MISMATCH, .invalidArgument), (FOVEA_STATUS_UNSUPPORTED_QUANTIZATION, .unsupported),
        ]
        XCTAssertNoThrow(try KernelStatus.check(FOVEA_STATUS_OK, "Conv"))
        for (status, kind) in cases {
            XCTAssertThrowsError(try KernelStatus.check(status, "Conv (Winograd)")) { error in
                let fovea = error as? FoveaError
                XCTAssertEqual(fovea?.kind, kind, "status \(status.rawValue)")
                let text = "\(error)"
                XCTAssertTrue(text.contains("Conv (Winograd): " + String(cString: fovea_status_description(status))), text)
            }
        }
    }

    /// A step run without the workspace it asked for gets the C kernel's
    /// NULL_POINTER status as a FoveaError, and writes nothing.
    func testMissingWorkspaceIsAnError() throws {
        var rng = ConvRandom(seed: 81)
        for policy in [WinogradPolicy.off, .forced(.winogradF4)] {
            for kernel in [1, 3] {
                let x = try Tensor(shape: [1, 4, 9, 9], floats: rng.floats(4 * 81))
                let w = try Tensor(shape: [8, 4, kernel, kernel], floats: rng.floats(32 * kernel * kernel))
                let op = Op.conv(ConvAttributes(kernelShape: [kernel, kernel], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1]))
                let (step, context) = try KernelsTestSupport.prepare(op, [x, w], constants: [1], backend: KernelsBackend(winograd: policy))
                XCTAssertGreaterThan(step.workspaceBytes(threads: 1), 0, step.algorithm)
                let input = UnsafeMutableRawPointer.allocate(byteCount: x.count * 4, alignment: 64)
                let output = UnsafeMutableRawPointer.allocate(byteCount: context.outputTypes[0].shape.elementCount * 4, alignment: 64)
                defer { input.deallocate(); output.deallocate() }
                let inputView = TensorView(base: input, dataType: .float32, shape: x.shape)
                inputView.copy(from: x)
                let outputView = TensorView(base: output, dataType: .float32, shape: context.outputTypes[0].shape)
                output.initializeMemory(as: Float.self, repeating: LayerCheck.sentinel, count: outputView.count)
                let buffers = StepBuffers(inputs: [inputView, nil], outputs: [outputView], workspace: nil)
                XCTAssertThrowsError(try step.run(buffers, context: RunContext(threads: 1))) { error in
                    XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument, step.algorithm)
                    XCTAssertTrue("\(error)".hasPrefix("Conv"), "\(error)")
                    XCTAssertTrue("\(error)".contains("NULL"), "\(error)")
                }
                XCTAssertTrue((0..<outputView.count).allSatisfy { outputView.floats[$0].bitPattern == LayerCheck.sentinel.bitPattern },
                              "\(step.algorithm) wrote its output before failing")
            }
        }
    }

    /// An elementwise step handed an output that partly overlaps its input
    /// (never what the planner does) gets INVALID_PARAMETER as a FoveaError.
    func testPartialOverlapIsAnError() throws {
        let x = Tensor(shape: [4, 16], repeating: 1)
        for op in [Op.add, .relu, .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false))] {
            let inputs = op.typeName == "Add" ? [x, x] : [x]
            let (step, context) = try KernelsTestSupport.prepare(op, inputs)
            let memory = UnsafeMutableRawPointer.allocate(byteCount: (x.count + 8) * 4, alignment: 64)
            defer { memory.deallocate() }
            memory.initializeMemory(as: Float.self, repeating: 1, count: x.count + 8)
            let input = TensorView(base: memory, dataType: .float32, shape: x.shape)
            let output = TensorView(base: memory + 4 * 4, dataType: .float32, shape: context.outputTypes[0].shape)
            let buffers = StepBuffers(inputs: inputs.map { _ in input }, outputs: [output], workspace: nil)
            XCTAssertThrowsError(try step.run(buffers, context: RunContext(threads: 1))) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .shapeMismatch, "\(op.typeName)")
                XCTAssertTrue("\(error)".lowercased().hasPrefix(op.typeName.lowercased() + ":"), "\(error)")
            }
        }
    }

    /// A step's run checks its inputs against the plan (data type, shape, presence), on every algorithm.
    func testWrongInputsAtRunAreTypedErrors() throws {
        var rng = ConvRandom(seed: 5)
        for (family, policy) in [(ConvCase.Family.winograd, WinogradPolicy.forced(.winogradF2)), (.winograd, .off), (.pointwise, .off),
                                 (.depthwise, .off)] {
            let c = ConvCase.random(&rng, family: family)
            let planned = try c.context()
            let step = try KernelsBackend(winograd: policy).prepare(planned)
            for (inputs, kind) in try c.wrongRunInputs() {
                XCTAssertThrowsError(try step.run(inputs, planned: planned, context: RunContext(threads: 1))) { error in
                    XCTAssertEqual((error as? FoveaError)?.kind, kind, step.algorithm)
                }
            }
        }
    }
}

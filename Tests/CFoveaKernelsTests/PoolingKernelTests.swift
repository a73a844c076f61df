import CFoveaKernels
import FoveaCore
import XCTest

/// The C pooling kernels, every ISA variant this CPU runs, against FoveaCore's
/// reference backend on random shapes (odd sizes, strides, dilations,
/// asymmetric pads, ceil mode, count_include_pad, batch > 1).
///
/// Max pooling must match bit for bit; average pooling within 1e-6 of the
/// data's scale (the reference and the kernels may add in different orders).
final class PoolingKernelTests: XCTestCase {
    override func tearDown() {
        fovea_kernels_set_isa("auto")
        super.tearDown()
    }

    /// A random pooling that has no window made only of padding (which the kernels refuse).
    private func randomPooling(_ rng: inout SeededGenerator) -> (attributes: PoolAttributes, inputShape: [Int]) {
        while true {
            let sizes = [1, 2, 5, 7, 13, 37]
            let inputShape = [Bool.random(using: &rng) ? 1 : 3, Int.random(in: 1...3, using: &rng),
                              sizes.randomElement(using: &rng) ?? 7, sizes.randomElement(using: &rng) ?? 7]
            let kernel = [Int.random(in: 1...4, using: &rng), Int.random(in: 1...4, using: &rng)]
            let dilations = [Int.random(in: 1...2, using: &rng), Int.random(in: 1...2, using: &rng)]
            // Pads smaller than the kernel, each side on its own (ONNX runtimes require pad < kernel).
            let pads = [0, 1, 0, 1].map { axis in Int.random(in: 0..<kernel[axis], using: &rng) }
            let attributes = PoolAttributes(
                kernelShape: kernel,
                strides: [Int.random(in: 1...3, using: &rng), Int.random(in: 1...3, using: &rng)],
                dilations: dilations, pads: pads, ceilMode: Bool.random(using: &rng),
                countIncludePad: Bool.random(using: &rng))
            guard let geometry = try? SpatialGeometry(inputSize: Array(inputShape[2...]), pooling: attributes) else {
                continue // the window does not fit the padded input
            }
            let everyWindowReadsInput = (0..<2).allSatisfy { axis in
                (0..<geometry.outputSize[axis]).allSatisfy { !geometry.validTapRange(axis: axis, output: $0).isEmpty }
            }
            if everyWindowReadsInput { return (attributes, inputShape) }
        }
    }

    private func randomInput(shape: [Int], _ rng: inout SeededGenerator) throws -> Tensor {
        try Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: -1...1, using: &rng) })
    }

    func testMaxAndAveragePoolingMatchTheReferenceOnRandomShapes() throws {
        var rng = SeededGenerator(seed: 0xF0CA)
        let isas = supportedKernelISAs
        XCTAssertTrue(isas.contains("scalar"))
        var compared = 0
        for shapeIndex in 0..<100 {
            let (attributes, inputShape) = randomPooling(&rng)
            let x = try randomInput(shape: inputShape, &rng)
            let floats = try x.requireFloats()
            let isMax = shapeIndex % 2 == 0
            let op: Op = isMax ? .maxPool(attributes) : .averagePool(attributes)
            let want = try referenceResult(of: op, input: x)
            let params = poolParameters(attributes, inputShape: inputShape, outputShape: want.shape)
            let wantFloats = try want.requireFloats()
            for isa in isas {
                let got = try withKernelISA(isa) { try runPoolKernel(max: isMax, params, floats) }
                if let bad = firstMismatch(got, wantFloats, exact: isMax) {
                    XCTFail("\(isa) \(op.typeName) \(inputShape) \(attributes) -> \(want.shape): output \(bad.index) is \(bad.got), reference \(bad.want)")
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 100 * isas.count)
    }

    func testSqueezeNetPoolingsMatchTheReference() throws {
        // SqueezeNet 1.1's max pools (3×3, stride 2, ceil mode) at batch 2, on smaller channel counts.
        var rng = SeededGenerator(seed: 11)
        for (size, channels) in [(111, 4), (55, 8), (27, 8)] {
            let attributes = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1],
                                            pads: [0, 0, 0, 0], ceilMode: true)
            let x = try randomInput(shape: [2, channels, size, size], &rng)
            let want = try referenceResult(of: .maxPool(attributes), input: x)
            let params = poolParameters(attributes, inputShape: x.shape, outputShape: want.shape)
            for isa in supportedKernelISAs {
                let got = try withKernelISA(isa) { try runPoolKernel(max: true, params, try x.requireFloats()) }
                XCTAssertNil(firstMismatch(got, try want.requireFloats(), exact: true), "\(isa) \(size)×\(size)")
            }
        }
    }

    func testGlobalPoolingMatchesTheReference() throws {
        var rng = SeededGenerator(seed: 0x61_0BA1)
        for shapeIndex in 0..<30 {
            let sizes = [1, 3, 4, 7, 13, 17, 37]
            let shape = [Bool.random(using: &rng) ? 1 : 2, Int.random(in: 1...5, using: &rng),
                         sizes.randomElement(using: &rng) ?? 7, sizes.randomElement(using: &rng) ?? 7]
            let x = try randomInput(shape: shape, &rng)
            let isMax = shapeIndex % 2 == 0
            let want = try referenceResult(of: isMax ? .globalMaxPool : .globalAveragePool, input: x)
            XCTAssertEqual(want.shape, [shape[0], shape[1], 1, 1])
            for isa in supportedKernelISAs {
                let got = try withKernelISA(isa) { try runGlobalPoolKernel(max: isMax, shape: shape, try x.requireFloats()) }
                if let bad = firstMismatch(got, try want.requireFloats(), exact: isMax) {
                    XCTFail("\(isa) \(isMax ? "GlobalMaxPool" : "GlobalAveragePool") \(shape): output \(bad.index) is \(bad.got), reference \(bad.want)")
                }
            }
        }
    }

    func testEveryISAGivesTheSameBits() throws {
        // The variants promise identical results (not just close) for 2-D max and average pooling.
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<20 {
            let (attributes, inputShape) = randomPooling(&rng)
            let x = try randomInput(shape: inputShape, &rng).requireFloats()
            let geometry = try SpatialGeometry(inputSize: Array(inputShape[2...]), pooling: attributes)
            let params = poolParameters(attributes, inputShape: inputShape, outputShape: Array(inputShape[..<2]) + geometry.outputSize)
            for isMax in [true, false] {
                let scalar = try withKernelISA("scalar") { try runPoolKernel(max: isMax, params, x) }
                for isa in supportedKernelISAs where isa != "scalar" {
                    let got = try withKernelISA(isa) { try runPoolKernel(max: isMax, params, x) }
                    XCTAssertNil(firstMismatch(got, scalar, exact: true), "\(isa) vs scalar, \(inputShape) \(attributes)")
                }
            }
        }
    }
}

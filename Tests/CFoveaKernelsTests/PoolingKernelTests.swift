import CFoveaKernels
import FoveaCore
import XCTest

/// The C pooling kernels, every ISA variant this CPU runs, against FoveaCore's
/// reference backend on random shapes (odd sizes, strides, dilations,
/// asymmetric pads, pads past the window, ceil mode, count_include_pad,
/// batch > 1) and on the special values every backend must get exactly
/// (LayerCheck.poolingSpecialCases: NaN, ±inf, windows entirely in padding).
///
/// Max pooling must match bit for bit, the sign of zero included; average
/// pooling within 1e-6 of the data's scale. The reference averages in Double
/// (issue 11); the C kernels add float32, which overflows to ±inf on windows
/// holding ±FLT_MAX whose true mean is finite: those outputs are counted, not
/// failed (a known limitation of the kernels, not of the reference).
final class PoolingKernelTests: XCTestCase {
    override func tearDown() {
        fovea_kernels_set_isa("auto")
        super.tearDown()
    }

    /// A random pooling. One in four has pads as large as the window or larger,
    /// so whole windows lie in the padding (-FLT_MAX for max, 0 for average).
    private func randomPooling(_ rng: inout SeededGenerator) -> (attributes: PoolAttributes, inputShape: [Int]) {
        while true {
            let sizes = [1, 2, 5, 7, 13, 37]
            let inputShape = [Bool.random(using: &rng) ? 1 : 3, Int.random(in: 1...3, using: &rng),
                              sizes.randomElement(using: &rng) ?? 7, sizes.randomElement(using: &rng) ?? 7]
            let kernel = [Int.random(in: 1...4, using: &rng), Int.random(in: 1...4, using: &rng)]
            let dilations = [Int.random(in: 1...2, using: &rng), Int.random(in: 1...2, using: &rng)]
            // Pads smaller than the kernel, each side on its own (as most models have), or sometimes larger.
            let padsPastTheWindow = Int.random(in: 0..<4, using: &rng) == 0
            let pads = [0, 1, 0, 1].map { axis in
                Int.random(in: 0..<(kernel[axis] + (padsPastTheWindow ? 3 : 0)), using: &rng)
            }
            let attributes = PoolAttributes(
                kernelShape: kernel,
                strides: [Int.random(in: 1...3, using: &rng), Int.random(in: 1...3, using: &rng)],
                dilations: dilations, pads: pads, ceilMode: Bool.random(using: &rng),
                countIncludePad: Bool.random(using: &rng))
            if (try? SpatialGeometry(inputSize: Array(inputShape[2...]), pooling: attributes)) != nil {
                return (attributes, inputShape)
            } // else the window does not fit the padded input: draw again
        }
    }

    /// Uniform in [-1, 1]; with `specials`, one value in ten is NaN, ±inf, ±0 or ±FLT_MAX.
    private func randomInput(shape: [Int], specials: Bool = false, _ rng: inout SeededGenerator) throws -> Tensor {
        let special: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        return try Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in
            specials && Int.random(in: 0..<10, using: &rng) == 0
                ? special.randomElement(using: &rng) ?? .nan
                : Float.random(in: -1...1, using: &rng)
        })
    }

    func testMaxAndAveragePoolingMatchTheReferenceOnRandomShapes() throws {
        var rng = SeededGenerator(seed: 0xF0CA)
        let isas = supportedKernelISAs
        XCTAssertTrue(isas.contains("scalar"))
        var compared = 0
        var float32Overflows = 0
        for shapeIndex in 0..<100 {
            let (attributes, inputShape) = randomPooling(&rng)
            // Half the shapes have special values (both ops add / compare taps in the reference's order).
            let x = try randomInput(shape: inputShape, specials: shapeIndex % 4 < 2, &rng)
            let floats = try x.requireFloats()
            let isMax = shapeIndex % 2 == 0
            let op: Op = isMax ? .maxPool(attributes) : .averagePool(attributes)
            let want = try referenceResult(of: op, input: x)
            let params = try poolParameters(attributes, inputShape: inputShape)
            XCTAssertEqual([params.output_height, params.output_width], Array(want.shape[2...]))
            let wantFloats = try want.requireFloats()
            for isa in isas {
                var got = try withKernelISA(isa) { try runPoolKernel(max: isMax, params, floats) }
                if !isMax {
                    for i in got.indices where got[i].isInfinite && wantFloats[i].isFinite
                        && abs(wantFloats[i]) >= .greatestFiniteMagnitude / 16 && got[i].sign == wantFloats[i].sign {
                        got[i] = wantFloats[i]  // float32 overflow of a sum of ±FLT_MAX taps
                        float32Overflows += 1
                    }
                }
                if let bad = firstMismatch(got, wantFloats, exact: isMax) {
                    XCTFail("\(isa) \(op.typeName) \(inputShape) \(attributes) -> \(want.shape): output \(bad.index) is \(bad.got), reference \(bad.want)")
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 100 * isas.count)
        // Rare: a window must hold two taps of ±FLT_MAX of one sign.
        XCTAssertLessThan(float32Overflows, 20 * isas.count)
    }

    func testSqueezeNetPoolingsMatchTheReference() throws {
        // SqueezeNet 1.1's max pools (3×3, stride 2, ceil mode) at batch 2, on smaller channel counts.
        var rng = SeededGenerator(seed: 11)
        for (size, channels) in [(111, 4), (55, 8), (27, 8)] {
            let attributes = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1],
                                            pads: [0, 0, 0, 0], ceilMode: true)
            let x = try randomInput(shape: [2, channels, size, size], &rng)
            let want = try referenceResult(of: .maxPool(attributes), input: x)
            let params = try poolParameters(attributes, inputShape: x.shape)
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
            let isMax = shapeIndex % 2 == 0
            // Global max with special values too; the global average sums in double, the reference in
            // float, so ±FLT_MAX could overflow in one and not the other: plain values there.
            let x = try randomInput(shape: shape, specials: isMax && shapeIndex % 4 == 0, &rng)
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
            let x = try randomInput(shape: inputShape, specials: true, &rng).requireFloats()
            let params = try poolParameters(attributes, inputShape: inputShape)
            for isMax in [true, false] {
                let scalar = try withKernelISA("scalar") { try runPoolKernel(max: isMax, params, x) }
                for isa in supportedKernelISAs where isa != "scalar" {
                    let got = try withKernelISA(isa) { try runPoolKernel(max: isMax, params, x) }
                    XCTAssertNil(firstMismatch(got, scalar, exact: true), "\(isa) vs scalar, \(inputShape) \(attributes)")
                }
            }
        }
    }

    /// `LayerCheck.poolingSpecialCases` (Tests/FoveaTestSupport, which this
    /// target does not link: keep the two lists alike) plus the order of +0 and
    /// -0, which `Tolerance.exact` does not see but these kernels match too.
    static func specialCases() throws -> [(op: Op, input: Tensor, description: String)] {
        let x = try Tensor(shape: [1, 1, 2, 2], floats: [1, -.infinity, .nan, 4])
        let allPadding = PoolAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [], pads: [3, 3, 3, 3])
        var includePad = allPadding
        includePad.countIncludePad = true
        let pair = PoolAttributes(kernelShape: [1, 2], strides: [], dilations: [], pads: [])
        let special = try Tensor(shape: [1, 2, 1, 4], floats: [-.infinity, .nan, -.infinity, -.infinity, .nan, .nan, .infinity, 2])
        // Zeros: MaxPool keeps the first of equal values, GlobalMaxPool (Swift.max) the last.
        let zeros = try Tensor(shape: [1, 3, 1, 4], floats: [0, -0.0, -0.0, 0, -0.0, 0, 0, -0.0, .nan, -0.0, .nan, -.infinity])
        let square = PoolAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [], pads: [1, 1, 1, 1])
        let zeroRows = try Tensor(shape: [1, 1, 2, 2], floats: [-0.0, 0, 0, -0.0])
        let allNaN = try Tensor(shape: [2, 1, 3, 5], floats: [Float](repeating: .nan, count: 30))
        return [
            (.maxPool(allPadding), x, "max, windows entirely in padding"),
            (.averagePool(allPadding), x, "average, windows entirely in padding"),
            (.averagePool(includePad), x, "average, windows in padding, count_include_pad"),
            (.maxPool(pair), special, "max of -inf and NaN"),
            (.averagePool(pair), special, "average of NaN and inf"),
            (.globalMaxPool, special, "global max of NaN and -inf"),
            (.globalAveragePool, special, "global average of NaN and inf"),
            (.maxPool(pair), zeros, "max of +0 and -0 in both orders"),
            (.globalMaxPool, zeros, "global max of +0 and -0 in both orders"),
            (.maxPool(square), zeroRows, "max of +0 and -0 across rows, with padding"),
            (.averagePool(square), zeroRows, "average of +0 and -0"),
            (.maxPool(square), allNaN, "max of NaN only"),
            (.globalMaxPool, allNaN, "global max of NaN only"),
            (.averagePool(square), allNaN, "average of NaN only"),
        ]
    }

    func testSpecialValuesMatchTheReferenceBitForBit() throws {
        for (op, x, description) in try Self.specialCases() {
            let want = try referenceResult(of: op, input: x).requireFloats()
            for isa in supportedKernelISAs {
                let got = try withKernelISA(isa) { try runPoolingKernel(op, x) }
                if let bad = firstMismatch(got, want, exact: true) {
                    XCTFail("\(isa) \(description): output \(bad.index) is \(bad.got) (0x\(String(bad.got.bitPattern, radix: 16))), reference \(bad.want) (0x\(String(bad.want.bitPattern, radix: 16)))")
                }
            }
        }
    }

    func testSpecialValuesGiveWhatTheReferenceDocuments() throws {
        // The numbers LayerCheck.poolingSpecialCases stands for, spelled out.
        let lowest = -Float.greatestFiniteMagnitude
        let pair = PoolAttributes(kernelShape: [1, 2], strides: [], dilations: [], pads: [])
        let special = try Tensor(shape: [1, 2, 1, 4], floats: [-.infinity, .nan, -.infinity, -.infinity, .nan, .nan, .infinity, 2])
        for isa in supportedKernelISAs {
            try withKernelISA(isa) {
                XCTAssertEqual(try runPoolingKernel(.maxPool(pair), special), [lowest, lowest, lowest, lowest, .infinity, .infinity], isa)
                XCTAssertEqual(try runPoolingKernel(.globalMaxPool, special), [-.infinity, .infinity], isa)
                XCTAssertTrue(try runPoolingKernel(.globalAveragePool, special).allSatisfy(\.isNaN), isa)
                let average = try runPoolingKernel(.averagePool(pair), special)
                XCTAssertTrue(average[0].isNaN && average[1].isNaN && average[2] == -.infinity, "\(isa) \(average)")
            }
        }
    }
}

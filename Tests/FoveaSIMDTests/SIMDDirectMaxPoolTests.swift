import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// The unpadded max pooling path (``DirectMaxPoolPlan``) against the reference, bit for bit.
final class SIMDDirectMaxPoolTests: XCTestCase {
    func testRandomUnpaddedMaxPoolIsDirectAndExact() throws {
        var g = SeededGenerator(seed: 606)
        var direct = 0
        for index in 0..<80 {
            let height = LayerCheck.pick([3, 7, 12, 37, 111], &g)
            let width = LayerCheck.pick([3, 5, 16, 33, 37, 111], &g)
            let shape = [LayerCheck.pick([1, 2], &g), LayerCheck.pick([1, 3, 13], &g), height, width]
            let kernel = [Int.random(in: 1...3, using: &g), Int.random(in: 1...3, using: &g)]
            let strides = [Int.random(in: 1...3, using: &g), Int.random(in: 1...2, using: &g)]
            let dilations = Int.random(in: 0..<4, using: &g) == 0 ? [Int.random(in: 1...2, using: &g), Int.random(in: 1...2, using: &g)] : [1, 1]
            // ceil_mode with pads 0 often overhangs the end: those cases take the padded path.
            let attributes = PoolAttributes(kernelShape: kernel, strides: strides, dilations: dilations,
                                            pads: [0, 0, 0, 0], ceilMode: Bool.random(using: &g))
            guard (try? SpatialGeometry(inputSize: [height, width], pooling: attributes)) != nil else { continue }
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            let algorithm = try SIMDTestSupport.check(.maxPool(attributes), [x], tolerance: .exact, threads: 1 + index % 2,
                                                      "direct MaxPool case \(index): x \(shape) kernel \(kernel) strides \(strides) dilations \(dilations) ceil \(attributes.ceilMode)")
            if algorithm.hasSuffix("direct") { direct += 1 }
        }
        XCTAssertGreaterThan(direct, 40)
    }

    func testPlanOnlyForWindowsInsideTheInput() {
        let shape = [1, 1, 8, 8]
        func plan(_ pads: [Int], stride: Int = 2, ceil: Bool = false) -> DirectMaxPoolPlan? {
            DirectMaxPoolPlan(inputShape: shape, attributes: PoolAttributes(kernelShape: [3, 3], strides: [stride, stride],
                                                                            dilations: [], pads: pads, ceilMode: ceil))
        }
        XCTAssertNotNil(plan([0, 0, 0, 0]))
        XCTAssertNil(plan([1, 1, 1, 1]))
        // 8 wide, kernel 3, stride 2: floor gives 3 outputs (inside); ceil gives 4 (the last overhangs).
        XCTAssertNil(plan([0, 0, 0, 0], ceil: true))
        XCTAssertNil(plan([0, 0, 0, 0], stride: 3))
    }

    func testSignedZerosAndSpecialsKeepTheReferenceTapOrder() throws {
        // Equal maxima of either sign: the first in (row, column) order wins, as in the reference.
        let values: [Float] = [-0.0, 0, -0.0, 0, .nan, -.infinity,
                               0, -0.0, .nan, -.infinity, -.infinity, .nan,
                               .nan, .nan, -0.0, 0, .infinity, 1]
        let x = try Tensor(shape: [1, 1, 3, 6], floats: values)
        let a = PoolAttributes(kernelShape: [2, 2], strides: [1, 2], dilations: [], pads: [0, 0, 0, 0])
        let algorithm = try SIMDTestSupport.check(.maxPool(a), [x], tolerance: .exact, "signed zeros")
        XCTAssertTrue(algorithm.hasSuffix("direct"))
        let (step, planned) = try SIMDTestSupport.prepare(.maxPool(a), [x])
        let reference = try ReferenceBackend.evaluate(.maxPool(a), inputs: [x], outputTypes: [TensorType(.float32, [1, 1, 2, 3])])[0]
        let result = try step.run([x], planned: planned, context: RunContext(threads: 1))[0]
        XCTAssertEqual(result.floats?.map(\.bitPattern), reference.floats?.map(\.bitPattern))
    }
}

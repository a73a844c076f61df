import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernels

/// Every elementwise function on the kernels backend against the
/// reference, LayerNormalization, and every fused pattern (Conv with each
/// activation on every convolution algorithm) against its unfused graph.
final class KernelsUnaryAndFusionTests: XCTestCase {
    func testEveryUnaryFunctionMatchesTheReference() throws {
        try UnaryParity.check(KernelsBackend())
    }

    func testLayerNormalization() throws {
        var generator = SeededGenerator(seed: 5)
        for (shape, axis) in [([2, 5, 16], -1), ([3, 4, 7], 1), ([1, 33], 1)] as [([Int], Int)] {
            let x = LayerCheck.randomTensor(shape, using: &generator)
            let normalized = Array(shape[(axis < 0 ? axis + shape.count : axis)...])
            let scale = LayerCheck.randomTensor(normalized, using: &generator)
            let bias = LayerCheck.randomTensor(normalized, using: &generator)
            try KernelsTestSupport.check(.layerNormalization(axis: axis, epsilon: 1e-5), [x, scale, bias], constants: [1, 2],
                                         tolerance: Tolerance(absolute: 1e-5, relative: 1e-4), threads: 2, "layernorm \(shape) axis \(axis)")
        }
    }

    func testFusedPatternsMatchTheUnfusedGraphWithEveryConvolutionAlgorithm() throws {
        for policy in [WinogradPolicy.off, .forced(.winogradF4), .measured] {
            for c in FusionPatternGraphs.all {
                try FusionPatternGraphs.check(c, backends: [KernelsBackend(winograd: policy)],
                                              tolerance: Tolerance(absolute: 1e-4, relative: 1e-4))
            }
        }
    }
}

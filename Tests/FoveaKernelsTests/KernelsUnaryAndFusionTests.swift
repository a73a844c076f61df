import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Every elementwise function on the kernels backend against the
/// reference, LayerNormalization, and every fused pattern (Conv with each
/// activation on every convolution algorithm) against its unfused graph.
final class KernelsUnaryAndFusionTests: XCTestCase {
    func testEveryUnaryFunctionMatchesTheReference() throws {
        try UnaryParity.check(KernelsBackend())
    }

    func testLayerNormalization() throws {
        for c in LayerNormalizationCases.all() {
            try KernelsTestSupport.check(c.op, [c.x, c.scale, c.bias], constants: [1, 2],
                                         tolerance: Tolerance(absolute: 1e-5, relative: 1e-4), threads: 2, "layernorm \(c.shape) axis \(c.axis)")
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

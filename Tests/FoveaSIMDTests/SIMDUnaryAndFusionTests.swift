import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// Every elementwise function on the simd backend (vector forms, the vector
/// `e^x` approximations, scalar fallbacks) against the reference, LayerNormalization, and every
/// fused pattern against its unfused graph.
final class SIMDUnaryAndFusionTests: XCTestCase {
    func testEveryUnaryFunctionMatchesTheReference() throws {
        try UnaryParity.check(SIMDBackend())
    }

    func testLayerNormalization() throws {
        for c in LayerNormalizationCases.all() {
            try SIMDTestSupport.check(c.op, [c.x, c.scale, c.bias], constants: [1, 2],
                                      tolerance: Tolerance(absolute: 1e-5, relative: 1e-4), threads: 2, "layernorm \(c.shape) axis \(c.axis)")
            try SIMDTestSupport.check(c.op, [c.x, c.scale], constants: [1],
                                      tolerance: Tolerance(absolute: 1e-5, relative: 1e-4), "layernorm \(c.shape) no bias")
        }
    }

    func testFusedPatternsMatchTheUnfusedGraph() throws {
        for c in FusionPatternGraphs.all {
            try FusionPatternGraphs.check(c, backends: [SIMDBackend()], tolerance: Tolerance(absolute: 1e-4, relative: 1e-4))
        }
    }
}

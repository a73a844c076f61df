import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// The shared harness (``LayerCheck``) bound to the SIMD backend.
enum SIMDTestSupport {
    static let backend = SIMDBackend()

    /// Runs `op` on the SIMD backend and the reference (see ``LayerCheck/check``).
    @discardableResult
    static func check(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], tolerance: Tolerance?,
                      threads: Int = 1, _ description: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try LayerCheck.check(backend, op, inputs, constants: constants, tolerance: tolerance, threads: threads, description,
                             file: file, line: line)
    }

    static func checkThreadIndependence(_ op: Op, _ inputs: [Tensor], _ description: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        try LayerCheck.checkThreadIndependence(backend, op, inputs, description, file: file, line: line)
    }

    static func supports(_ op: Op, _ types: [TensorType], outputCount: Int = 1) -> Bool {
        LayerCheck.supports(backend, op, types, outputCount: outputCount)
    }

    /// Prepares `op` on the SIMD backend (which must support it).
    static func prepare(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = []) throws -> (any PreparedStep, NodeContext) {
        let context = try LayerCheck.nodeContext(op, inputs, constants: constants)
        return (try backend.prepare(context), context)
    }
}

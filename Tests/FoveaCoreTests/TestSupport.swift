import XCTest
@testable import FoveaCore

/// Runs one operator the way `ExecutionPlan` does: shape inference, then the reference backend.
func evaluate(_ op: Op, _ inputs: [Tensor?], outputCount: Int = 1) throws -> [Tensor] {
    let types = try op.outputTypes(inputs: inputs.map { $0.map { TensorType($0.dataType, $0.shape) } }, outputCount: outputCount)
    return try ReferenceBackend.evaluate(op, inputs: inputs, outputTypes: types)
}

/// Runs a single-output operator and returns its output.
func evaluate1(_ op: Op, _ inputs: Tensor?...) throws -> Tensor {
    try evaluate(op, inputs)[0]
}

/// A float tensor; the test fails (throws) if the count does not match the shape.
func floats(_ shape: [Int], _ values: [Float]) throws -> Tensor {
    try Tensor(shape: shape, floats: values)
}

/// A float tensor holding 0, 1, 2, ... in row-major order.
func iota(_ shape: [Int], from start: Float = 0) -> Tensor {
    Tensor(uncheckedShape: shape, floats: (0..<shape.elementCount).map { start + Float($0) })
}

/// The shape-inference result types for `inputs`.
func inferred(_ op: Op, _ inputs: [TensorType?], outputCount: Int = 1) throws -> [TensorType] {
    try op.outputTypes(inputs: inputs, outputCount: outputCount)
}

func f32(_ shape: [Int]) -> TensorType { TensorType(.float32, shape) }

/// Element-wise closeness with an absolute-plus-relative tolerance.
func assertClose(_ actual: Tensor, _ expectedShape: [Int], _ expected: [Float], tolerance: Float = 1e-5,
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.shape, expectedShape, "shape", file: file, line: line)
    guard let values = actual.floats else {
        return XCTFail("expected float32, found \(actual.dataType)", file: file, line: line)
    }
    assertClose(values, expected, tolerance: tolerance, file: file, line: line)
}

func assertClose(_ actual: [Float], _ expected: [Float], tolerance: Float = 1e-5,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard actual.count == expected.count else {
        return XCTFail("\(actual.count) values, expected \(expected.count): \(actual)", file: file, line: line)
    }
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        let bound = tolerance * max(1, abs(e))
        if !(abs(a - e) <= bound) && !(a == e) {
            return XCTFail("value \(index) is \(a), expected \(e) (all: \(actual))", file: file, line: line)
        }
    }
}

/// Asserts that `body` throws a `FoveaError` of `kind` whose message contains every fragment.
func assertFoveaError<T>(_ kind: FoveaError.Kind, _ fragments: String..., file: StaticString = #filePath, line: UInt = #line,
                         _ body: () throws -> T) {
    do {
        _ = try body()
        XCTFail("expected a \(kind) error", file: file, line: line)
    } catch let error as FoveaError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(error.description.contains(fragment), "'\(error)' does not contain '\(fragment)'", file: file, line: line)
        }
    } catch {
        XCTFail("expected FoveaError, got \(error)", file: file, line: line)
    }
}

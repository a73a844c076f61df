import Foundation
import Testing
import FoveaCore
import FoveaONNX

/// A few checks in Swift Testing, so `swift test` reports tests from both runners.
@Suite struct ONNXLoaderSwiftTesting {
    @Test func supportedOpsets() {
        #expect(ONNXLoader.supportedOpsets == 7...21)
    }

    @Test func zeroBytesAreNotAModel() {
        #expect(throws: FoveaError.self) { try ONNXLoader.load(data: Data(), fileName: "empty.onnx") }
    }
}

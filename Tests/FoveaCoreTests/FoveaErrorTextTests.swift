import Foundation
import XCTest
import FoveaCore

/// Issue 15: `error.localizedDescription` reads as well as `"\(error)"`.
final class FoveaErrorTextTests: XCTestCase {
    private let located = FoveaError(.invalidAttribute, "attribute 'group' is 0; expected >= 1",
                                     location: .init(file: "squeezenet.onnx", node: "conv1", opType: "Conv", opset: 13))
    private let expected = "squeezenet.onnx: node 'conv1' (Conv, opset 13): attribute 'group' is 0; expected >= 1"

    func testLocalizedDescriptionIsTheOneLineDescription() {
        XCTAssertEqual(located.description, expected)
        XCTAssertEqual("\(located)", expected)
        XCTAssertEqual(located.errorDescription, expected)
        XCTAssertEqual(located.localizedDescription, expected)
    }

    func testTheTextSurvivesTypeErasure() {
        // How callers meet it: `catch { print(error.localizedDescription) }`.
        let erased: any Error = located
        XCTAssertEqual(erased.localizedDescription, expected)
        XCTAssertEqual(String(describing: erased), expected)
        XCTAssertEqual((erased as? any LocalizedError)?.errorDescription, expected)
        XCTAssertFalse(erased.localizedDescription.contains("FoveaError error"))
    }

    func testUnlocatedAndEscapedErrorsMatchToo() {
        let plain = FoveaError(.io, "cannot read file")
        XCTAssertEqual((plain as any Error).localizedDescription, "cannot read file")
        let hostile = FoveaError(.invalidModel, "bad", location: .init(node: "n\u{1B}[2J"))
        XCTAssertEqual((hostile as any Error).localizedDescription, "node 'n\\x1B[2J': bad")
        XCTAssertEqual(hostile.errorDescription, hostile.description)
    }
}

import Foundation
import FoveaServer
import XCTest

final class LineLogHandlerTests: XCTestCase {
    func testKeyValueQuotesOnlyWhatNeedsIt() {
        XCTAssertEqual(LineLogHandler.keyValue([("level", "info"), ("msg", "model loaded"), ("path", "/m/a.onnx"), ("empty", "")]),
                       #"level=info msg="model loaded" path=/m/a.onnx empty="""#)
    }

    func testJSONLinesEscape() throws {
        let line = LineLogHandler.json([("msg", "a \"b\"\n\u{1}"), ("model", "sq")])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        XCTAssertEqual(object, ["msg": "a \"b\"\n\u{1}", "model": "sq"])
    }
}

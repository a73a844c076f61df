import Foundation
import FoveaServer
import XCTest

final class ModelSourceTests: XCTestCase {
    func testModelArguments() throws {
        XCTAssertEqual(try ModelSource(argument: "sq=/m/a.onnx"), ModelSource(name: "sq", path: "/m/a.onnx"))
        XCTAssertEqual(try ModelSource(argument: "/m/squeezenet1.1.onnx"), ModelSource(name: "squeezenet1.1", path: "/m/squeezenet1.1.onnx"))
        XCTAssertThrowsError(try ModelSource(argument: "a b=/m/a.onnx"))
        XCTAssertThrowsError(try ModelSource(argument: "sq="))
        XCTAssertThrowsError(try ModelSource(argument: "=/m/a.onnx"))
    }

    func testAKServeModelDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        for folder in ["resnet/1", "resnet/2", "mobilenet", "empty", ".hidden"] {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["squeezenet.onnx", "notes.txt", "resnet/1/model.onnx", "resnet/2/model.onnx", "mobilenet/mobilenet.mlmodel", ".hidden/x.onnx"] {
            XCTAssertTrue(manager.createFile(atPath: root + "/" + file, contents: Data()))
        }
        let found = try ModelSource.scan(directory: root)
        XCTAssertEqual(found, [ModelSource(name: "mobilenet", path: root + "/mobilenet/mobilenet.mlmodel"),
                               ModelSource(name: "resnet", path: root + "/resnet/2/model.onnx"),
                               ModelSource(name: "squeezenet", path: root + "/squeezenet.onnx")])
        // --model-name names the one model of a directory, and refuses several.
        XCTAssertEqual(try ModelSource.scan(directory: root + "/mobilenet", name: "isvc"), [ModelSource(name: "isvc", path: root + "/mobilenet/mobilenet.mlmodel")])
        XCTAssertThrowsError(try ModelSource.scan(directory: root, name: "isvc"))
        XCTAssertThrowsError(try ModelSource.scan(directory: root + "/empty"))
        XCTAssertThrowsError(try ModelSource.scan(directory: root + "/missing"))
    }
}

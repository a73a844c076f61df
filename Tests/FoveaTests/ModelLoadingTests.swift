import XCTest
@_spi(Internals) @testable import Fovea

/// What loading a model checks and says (issue 37): threads below 1, labels that do
/// not match the classes, and the class count.
final class ModelLoadingTests: XCTestCase {
    func testZeroOrNegativeThreadsIsAnErrorWhenTheModelLoads() throws {
        for threads in [0, -2] {
            XCTAssertThrowsError(try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"),
                                           configuration: ModelConfiguration(threads: threads))) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
                XCTAssertTrue("\(error)".contains("threads is \(threads); give at least 1, or nil for every core"), "\(error)")
            }
        }
        XCTAssertNoThrow(try TestImages.tinyModel())
    }

    func testClassCountIsAPropertyOfTheLoadedModel() throws {
        XCTAssertEqual(try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).classCount, 1000)
        XCTAssertEqual(try TestImages.tinyModel().classCount, 6)
    }

    func testLabelsGivenInCodeThatDoNotMatchAreNotCalledAFile() throws {
        XCTAssertThrowsError(try TestImages.tinyModel().describing { $0.classLabels = ClassLabels(["cat", "dog"]) }) { error in
            XCTAssertTrue("\(error)".contains("the class labels name 2 classes but the model has 6; give one label per class"), "\(error)")
            XCTAssertFalse("\(error)".contains("file"), "\(error)")
        }
    }
}

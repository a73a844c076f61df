import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea

/// Handlers from files, data and pixel buffers; the crop options end to end;
/// errors for bad input. Uses the tiny in-code model.
final class ImageRequestHandlerTests: XCTestCase {
    func testPixelBufferFormatsGiveTheSameResultAsTheRGBImage() throws {
        let request = try ClassificationRequest(model: try TestImages.tinyModel())
        let image = try TestImages.gradient(width: 21, height: 13)
        let expected = try ImageRequestHandler(image: image).performAndWait(request)
        let rgb = image.pixels
        var rgba: [UInt8] = [], bgra: [UInt8] = [], paddedRGB: [UInt8] = []
        for p in 0..<(image.width * image.height) {
            let (r, g, b) = (rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2])
            rgba += [r, g, b, 255]
            bgra += [b, g, r, 7]
        }
        for row in 0..<image.height {
            paddedRGB += rgb[(row * 63)..<((row + 1) * 63)] + [1, 2, 3, 4, 5]
        }
        let buffers = [
            PixelBuffer(width: 21, height: 13, format: .rgb8, bytes: rgb),
            PixelBuffer(width: 21, height: 13, format: .rgba8, bytes: rgba),
            PixelBuffer(width: 21, height: 13, format: .bgra8, bytes: bgra),
            PixelBuffer(width: 21, height: 13, bytesPerRow: 68, format: .rgb8, bytes: paddedRGB),
        ]
        for buffer in buffers {
            let handler = try ImageRequestHandler(pixelBuffer: buffer)
            XCTAssertEqual(try handler.image, image, "\(buffer.format) \(buffer.bytesPerRow)")
            XCTAssertEqual(try handler.performAndWait(request), expected)
        }
    }

    func testGrayPixelBufferAndOrientation() throws {
        let gray = PixelBuffer(width: 3, height: 2, format: .gray8, bytes: [0, 10, 20, 30, 40, 50])
        let handler = try ImageRequestHandler(pixelBuffer: gray, orientation: .right)
        XCTAssertEqual(try handler.image.width, 2)
        XCTAssertEqual(try handler.image.height, 3)
        // Turned 90° clockwise: the top row is the stored left column, bottom to top.
        XCTAssertEqual(try handler.image.pixel(x: 0, y: 0)?.red, 30)
        XCTAssertEqual(try handler.image.pixel(x: 1, y: 0)?.green, 0)
    }

    func testMismatchedPixelBuffersAreTypedErrors() {
        let cases: [(PixelBuffer, String)] = [
            (PixelBuffer(width: 4, height: 4, format: .rgba8, bytes: [UInt8](repeating: 0, count: 63)), "needs 64 bytes"),
            (PixelBuffer(width: 4, height: 4, bytesPerRow: 10, format: .rgb8, bytes: [UInt8](repeating: 0, count: 48)), "at least 12"),
            (PixelBuffer(width: 0, height: 4, format: .gray8, bytes: []), "empty"),
            (PixelBuffer(width: 4, height: -1, format: .gray8, bytes: []), "empty"),
            (PixelBuffer(width: 3, height: 1 << 40, bytesPerRow: 1 << 40, format: .gray8, bytes: [1, 2, 3]), "limit"),
        ]
        for (buffer, fragment) in cases {
            XCTAssertThrowsError(try ImageRequestHandler(pixelBuffer: buffer)) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidImage, "\(error)")
                XCTAssertTrue(String(describing: error).contains(fragment), "\(error)")
            }
        }
    }

    func testCropOptionsReachTheModelWithTheirGeometry() throws {
        let model = try TestImages.tinyModel()
        // A 32×16 image: left half white, right half black.
        var pixels = [UInt8](repeating: 0, count: 32 * 16 * 3)
        for y in 0..<16 { for x in 0..<16 { for c in 0..<3 { pixels[(y * 32 + x) * 3 + c] = 255 } } }
        let image = try RGBImage(width: 32, height: 16, pixels: pixels)
        let request = try ClassificationRequest(model: model)
        XCTAssertEqual(request.inputSize.width, 16)

        request.imageCropAndScaleOption = .centerCrop  // the central 16×16: columns 8..<24
        let centre = try request.preparedImage(for: image)
        XCTAssertEqual(centre.pixel(x: 7, y: 8)?.red, 255)
        XCTAssertEqual(centre.pixel(x: 8, y: 8)?.red, 0)

        request.imageCropAndScaleOption = .scaleFill  // squeezed to 16×16: white left half
        let fill = try request.preparedImage(for: image)
        XCTAssertEqual(fill.pixel(x: 6, y: 0)?.red, 255)
        XCTAssertEqual(fill.pixel(x: 9, y: 15)?.red, 0)

        request.imageCropAndScaleOption = .scaleFit  // 16×8 in the middle, black bands of 4 rows
        let fit = try request.preparedImage(for: image)
        XCTAssertEqual(fit.pixel(x: 2, y: 3)?.red, 0)
        XCTAssertEqual(fit.pixel(x: 2, y: 4)?.red, 255)
        XCTAssertEqual(fit.pixel(x: 2, y: 11)?.red, 255)
        XCTAssertEqual(fit.pixel(x: 2, y: 12)?.red, 0)

        let scores = try ImageCropAndScaleOption.allCases.map { option -> [ClassificationObservation] in
            request.imageCropAndScaleOption = option
            return try ImageRequestHandler(image: image).performAndWait(request)
        }
        XCTAssertNotEqual(scores[0], scores[1])
        XCTAssertNotEqual(scores[1], scores[2])
    }

    func testObservationsAreSortedFilteredAndCut() throws {
        let request = try ClassificationRequest(model: try TestImages.tinyModel(labels: ["a", "b", "c", "d", "e", "f"]))
        let all = request.observations(forScores: [1, 5, 3, 5, 0, 2])
        XCTAssertEqual(all.map(\.identifier), ["b", "d", "c", "f", "a", "e"])
        XCTAssertEqual(Double(all.map(\.confidence).reduce(0, +)), 1, accuracy: 1e-5)
        request.maximumObservations = 2
        XCTAssertEqual(request.observations(forScores: [1, 5, 3, 5, 0, 2]).map(\.identifier), ["b", "d"])
        request.maximumObservations = nil
        request.minimumConfidence = 0.05
        XCTAssertEqual(request.observations(forScores: [1, 5, 3, 5, 0, 2]).map(\.identifier), ["b", "d", "c"])
    }

    func testCompletionHandlerGetsErrorsToo() throws {
        let box = ObservationResultBox()
        let request = try ClassificationRequest(model: try TestImages.tinyModel()) { _, result in box.set(result) }
        let handler = ImageRequestHandler(image: try TestImages.gradient(width: 5, height: 5))
        XCTAssertEqual(try handler.performAndWait(request).count, 6)
        XCTAssertEqual(try box.get()?.get().count, 6)
    }

    func testBadFilesAndModelsWithoutImagesAreTypedErrors() throws {
        let directory = try TestData.temporaryDirectory()
        let text = directory.appendingPathComponent("notes.jpg")
        try Data("hello".utf8).write(to: text)
        let cases: [(() throws -> Any, FoveaError.Kind, String)] = [
            ({ try ImageRequestHandler(contentsOfFile: "/nonexistent/cat.jpg") }, .io, "/nonexistent/cat.jpg"),
            ({ try ImageRequestHandler(contentsOfFile: directory.path) }, .io, "directory"),
            ({ try ImageRequestHandler(contentsOfFile: text.path) }, .invalidImage, "notes.jpg"),
            ({ try ImageRequestHandler(data: Data()) }, .invalidImage, "empty"),
            ({ try ImageRequestHandler(contentsOf: URL(string: "https://example.com/cat.jpg")!) }, .invalidArgument, "file URLs"),
        ]
        for (body, kind, fragment) in cases {
            XCTAssertThrowsError(try body()) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, kind, "\(error)")
                XCTAssertTrue(String(describing: error).contains(fragment), "\(error)")
            }
        }
        // A model whose input is not an image cannot make a classification request.
        let graph = Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(4)])],
                          outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: [.known(1), .known(4)])],
                          nodes: [Node(name: "relu", op: .relu, inputs: ["x"], outputs: ["y"])])
        XCTAssertThrowsError(try ClassificationRequest(model: try Model(graph: graph))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue(String(describing: error).contains("no image input"), "\(error)")
        }
    }
}

private final class ObservationResultBox: @unchecked Sendable {
    // @unchecked: `result` is only touched while holding `lock`.
    private let lock = NSLock()
    private var result: Result<[ClassificationObservation], any Error>?
    func set(_ value: Result<[ClassificationObservation], any Error>) { lock.withLock { result = value } }
    func get() -> Result<[ClassificationObservation], any Error>? { lock.withLock { result } }
}

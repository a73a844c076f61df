import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// Barcodes on the images scripts/gen/barcode-images.sh made (Tests/FoveaTests/Frames/Barcodes).
final class BarcodeTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Barcodes")

    struct Expected: Decodable {
        var symbology: String
        var payload: String
        /// The dark modules' pixel box in the upright image: x, y (from the top left), width, height.
        var box: [Int]
    }

    private func expected() throws -> [String: Expected?] {
        try JSONDecoder().decode([String: Expected?].self, from: Data(contentsOf: Self.directory.appendingPathComponent("expected.json")))
    }

    private func path(_ name: String) -> String { Self.directory.appendingPathComponent(name).path }

    /// QR, EAN-13, Code 128 and the EXIF-rotated EAN-13: symbology, payload, and a
    /// box (normalized, origin at the lower left) over the code's modules.
    func testCodesAreReadWithTheirBoxes() throws {
        for (name, entry) in try expected() {
            let handler = try ImageRequestHandler(contentsOfFile: path(name))
            let request = DetectBarcodesRequest()
            try handler.performAndWait([request] as [any ImageRequest])
            let found = try XCTUnwrap(request.results, name)
            guard let entry else {
                XCTAssertEqual(found, [], name)
                continue
            }
            XCTAssertEqual(found.count, 1, "\(name): \(found)")
            let code = try XCTUnwrap(found.first, name)
            XCTAssertEqual(code.symbology.rawValue, entry.symbology, name)
            XCTAssertEqual(code.payloadStringValue, entry.payload, name)
            XCTAssertEqual(code.confidence, 1)
            // The expected box in Vision's coordinates.
            let image = try handler.image
            let (w, h) = (Double(image.width), Double(image.height))
            let box = CGRect(x: Double(entry.box[0]) / w, y: 1 - Double(entry.box[1] + entry.box[3]) / h,
                             width: Double(entry.box[2]) / w, height: Double(entry.box[3]) / h)
            let found2 = code.boundingBox
            // Across the bars, zbar's box matches the modules to within 2%; along them
            // (linear codes), it spans the scan lines that read the code, inside the bars.
            XCTAssertEqual(found2.minX, box.minX, accuracy: 0.02, name)
            XCTAssertEqual(found2.maxX, box.maxX, accuracy: 0.02, name)
            XCTAssertGreaterThanOrEqual(found2.minY, box.minY - 0.02, name)
            XCTAssertLessThanOrEqual(found2.maxY, box.maxY + 0.02, name)
            if entry.symbology == "QR" {
                XCTAssertEqual(found2.minY, box.minY, accuracy: 0.02, name)
                XCTAssertEqual(found2.maxY, box.maxY, accuracy: 0.02, name)
            }
        }
    }

    /// The rotated file is read upright: the same box as the unrotated one. Read
    /// without its EXIF orientation, the box is elsewhere.
    func testEXIFOrientationIsAppliedBeforeDetection() throws {
        let upright = DetectBarcodesRequest(), rotated = DetectBarcodesRequest(), raw = DetectBarcodesRequest()
        try ImageRequestHandler(contentsOfFile: path("ean13.png")).performAndWait([upright] as [any ImageRequest])
        let handler = try ImageRequestHandler(contentsOfFile: path("ean13_exif_rotated.png"))
        XCTAssertEqual(handler.orientation, .right)
        try handler.performAndWait([rotated] as [any ImageRequest])
        try ImageRequestHandler(contentsOfFile: path("ean13_exif_rotated.png"), orientation: .up).performAndWait([raw] as [any ImageRequest])
        let a = try XCTUnwrap(upright.results?.first?.boundingBox), b = try XCTUnwrap(rotated.results?.first?.boundingBox)
        XCTAssertEqual(a.minX, b.minX, accuracy: 0.01)
        XCTAssertEqual(a.maxX, b.maxX, accuracy: 0.01)
        let c = try XCTUnwrap(raw.results?.first?.boundingBox)
        XCTAssertGreaterThan(c.height, c.width, "stored sideways, the bars run across: \(c)")
    }

    /// One perform, two requests, one decoded image: classes and codes together.
    func testBarcodesRunBesideClassificationOnOneHandler() throws {
        let classify = try ClassificationRequest(model: TestImages.tinyModel(labels: ["a", "b", "c", "d", "e", "f"]))
        let barcodes = DetectBarcodesRequest()
        let handler = try ImageRequestHandler(contentsOfFile: path("qr.png"))
        try handler.performAndWait([classify, barcodes])
        XCTAssertEqual(classify.results?.count, 6)
        XCTAssertEqual(try classify.results, try classify.observations(for: handler.image))
        XCTAssertEqual(barcodes.results?.map(\.payloadStringValue), ["https://fovea.example/item/42"])
        // symbologies filters.
        let onlyEAN = DetectBarcodesRequest()
        onlyEAN.symbologies = [.ean13]
        XCTAssertEqual(try onlyEAN.observations(for: handler.image), [])
    }

    /// A region of interest limits the search, and boxes are relative to it.
    func testRegionOfInterestLimitsTheSearchAndFramesTheBox() throws {
        let image = try ImageRequestHandler(contentsOfFile: path("qr.png")).image  // QR at x 60..<176, y 40..<156 of 400×300
        let request = DetectBarcodesRequest()
        request.regionOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)  // the right half: no code
        XCTAssertEqual(try request.observations(for: image), [])
        request.regionOfInterest = CGRect(x: 0, y: 0.4, width: 0.5, height: 0.6)  // columns 0..<200, rows 0..<180
        let box = try XCTUnwrap(try request.observations(for: image).first?.boundingBox)
        XCTAssertEqual(box.minX, 60.0 / 200, accuracy: 0.02)
        XCTAssertEqual(box.maxX, 176.0 / 200, accuracy: 0.02)
        XCTAssertEqual(box.minY, 1 - 156.0 / 180, accuracy: 0.02)
        XCTAssertEqual(box.maxY, 1 - 40.0 / 180, accuracy: 0.02)
    }

    /// `fovea classify --barcodes --json` adds the codes to each result.
    func testClassifyCommandAddsBarcodes() throws {
        let result = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--labels", "imagenet",
                                            "--barcodes", "--json", path("code128.png"), path("no_code.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(object["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 2)
        let codes = try XCTUnwrap(results[0]["barcodes"] as? [[String: Any]])
        XCTAssertEqual(codes.first?["payloadStringValue"] as? String, "FOVEA-128")
        XCTAssertEqual(codes.first?["symbology"] as? String, "Code128")
        XCTAssertEqual((results[1]["barcodes"] as? [Any])?.count, 0)
        XCTAssertNotNil(results[0]["observations"])
        let text = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--barcodes", path("qr.png")])
        XCTAssertTrue(text.stdout.contains("barcode QR https://fovea.example/item/42"), text.stdout)
    }
}

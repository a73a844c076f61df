import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

final class PixelNormalizationTests: XCTestCase {
    func testImageNetAndUnitRangeValues() throws {
        let imageNet = PixelNormalization.imageNet
        XCTAssertEqual(imageNet.mean, [0.485, 0.456, 0.406])
        XCTAssertEqual(imageNet.std, [0.229, 0.224, 0.225])
        XCTAssertEqual(imageNet.channelOrder, .rgb)
        XCTAssertEqual(imageNet.value(of: 0, channel: 0), -0.485 / 0.229, accuracy: 1e-6)
        XCTAssertEqual(imageNet.value(of: 255, channel: 1), (1 - 0.456) / 0.224, accuracy: 1e-6)
        XCTAssertEqual(imageNet.value(of: 124, channel: 2), (124.0 / 255 - 0.406) / 0.225, accuracy: 1e-6)
        XCTAssertEqual(PixelNormalization.unitRange.value(of: 51, channel: 1), 0.2, accuracy: 1e-7)
        XCTAssertEqual(PixelNormalization.unitRange.value(of: 255, channel: 2), 1)

        // squeezenet1.0's (p - 127.5) / 127.5.
        let symmetric = try PixelNormalization(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5])
        XCTAssertEqual(symmetric.value(of: 0, channel: 0), -1)
        XCTAssertEqual(symmetric.value(of: 255, channel: 0), 1)
        XCTAssertEqual(symmetric.value(of: 200, channel: 0), (200 - 127.5) / 127.5, accuracy: 1e-6)
    }

    func testTensorLayoutIsNCHW() throws {
        let a = try patternImage(width: 5, height: 3)
        let b = try RGBImage(width: 5, height: 3, red: 255, green: 0, blue: 51)
        let tensor = try PixelNormalization.unitRange.tensor(from: [a, b])
        XCTAssertEqual(tensor.shape, [2, 3, 3, 5])
        XCTAssertEqual(tensor.dataType, .float32)
        let values = try XCTUnwrap(tensor.floats)
        for y in 0..<3 {
            for x in 0..<5 {
                let p = try XCTUnwrap(a.pixel(x: x, y: y))
                let rgb = [p.red, p.green, p.blue]
                for c in 0..<3 {
                    XCTAssertEqual(values[(c * 3 + y) * 5 + x], Float(rgb[c]) / 255, accuracy: 1e-7)
                }
                XCTAssertEqual(values[((3 + 0) * 3 + y) * 5 + x], 1)
                XCTAssertEqual(values[((3 + 1) * 3 + y) * 5 + x], 0)
                XCTAssertEqual(values[((3 + 2) * 3 + y) * 5 + x], 0.2, accuracy: 1e-7)
            }
        }
        XCTAssertEqual(try PixelNormalization.unitRange.tensor(from: [a]).shape, [1, 3, 3, 5])
    }

    func testBGROrderPutsBlueFirst() throws {
        let image = try RGBImage(width: 2, height: 1, pixels: [10, 20, 30, 40, 50, 60])
        let bgr = try PixelNormalization(mean: [0.1, 0.2, 0.3], std: [0.5, 0.25, 0.125], channelOrder: .bgr)
        let values = try XCTUnwrap(bgr.tensor(from: [image]).floats)
        // Tensor channel 0 is blue, normalized with mean[0] / std[0].
        let expected: [Double] = [
            (30.0 / 255 - 0.1) / 0.5, (60.0 / 255 - 0.1) / 0.5,
            (20.0 / 255 - 0.2) / 0.25, (50.0 / 255 - 0.2) / 0.25,
            (10.0 / 255 - 0.3) / 0.125, (40.0 / 255 - 0.3) / 0.125,
        ]
        for (value, want) in zip(values, expected) {
            XCTAssertEqual(Double(value), want, accuracy: 1e-6)
        }
    }

    /// Cross-checked with numpy: `((ppm / 255 - mean) / std).transpose(2, 0, 1)` in float64, then float32.
    func testImageNetTensorOfReferenceCrop() throws {
        let crop = try ImageDecoder.decode(contentsOf: photoPath("red_panda.224.ppm"))
        let tensor = try PixelNormalization.imageNet.tensor(from: [crop])
        XCTAssertEqual(tensor.shape, [1, 3, 224, 224])
        let values = try XCTUnwrap(tensor.floats)
        XCTAssertEqual(values[0], 1.5467933, accuracy: 1e-6)
        XCTAssertEqual(values[224 * 224 + 100 * 224 + 37], 1.6407562, accuracy: 1e-6)
        XCTAssertEqual(values[2 * 224 * 224 + 223 * 224 + 223], -1.7870152, accuracy: 1e-6)
        XCTAssertEqual(values.reduce(0.0) { $0 + Double($1) }, -12874.578522364143, accuracy: 0.01)
        XCTAssertEqual(values.map(abs).max() ?? 0, 2.5877125, accuracy: 1e-6)
    }

    func testTensorErrors() throws {
        assertFoveaError(.invalidArgument, messageContains: "no images") { try PixelNormalization.imageNet.tensor(from: []) }
        let a = try patternImage(width: 4, height: 4)
        let b = try patternImage(width: 4, height: 5)
        let error = assertFoveaError(.shapeMismatch) { try PixelNormalization.imageNet.tensor(from: [a, a, b]) }
        XCTAssertEqual(error?.message, "image 2 is 4×5; expected 4×4 like image 0")
    }

    func testInvalidNormalizationThrows() throws {
        assertFoveaError(.invalidArgument, messageContains: "3 means") { try PixelNormalization(mean: [0.5, 0.5], std: [1, 1, 1]) }
        assertFoveaError(.invalidArgument, messageContains: "3 stds") { try PixelNormalization(mean: [0, 0, 0], std: [1, 1, 1, 1]) }
        assertFoveaError(.invalidArgument) { try PixelNormalization(mean: [0, 0, 0], std: [1, 0, 1]) }
        assertFoveaError(.invalidArgument) { try PixelNormalization(mean: [.nan, 0, 0], std: [1, 1, 1]) }
        assertFoveaError(.invalidArgument) { try PixelNormalization(mean: [0, 0, 0], std: [1, .infinity, 1]) }

        // The statistics are mutable, so the tensor conversion checks them again.
        var edited = PixelNormalization.imageNet
        edited.std = [1, 0, 1]
        let image = try patternImage(width: 2, height: 2)
        assertFoveaError(.invalidArgument, messageContains: "non-zero") { try edited.tensor(from: [image]) }
        edited.std = [1, 1]
        assertFoveaError(.invalidArgument, messageContains: "3 stds") { try edited.tensor(from: [image]) }
    }
}

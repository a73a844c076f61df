import XCTest
@testable import FoveaCore

/// Resize on the reference backend: nearest and linear, each coordinate
/// transformation and rounding mode, by hand on small inputs.
final class ReferenceResizeTests: XCTestCase {
    /// [1, 2, 3, 4] as 1×1×1×4.
    private let row = Tensor(uncheckedShape: [1, 1, 1, 4], floats: [1, 2, 3, 4])

    private func resize(_ x: Tensor, _ a: ResizeAttributes) throws -> Tensor { try evaluate1(.resize(a), x) }

    func testLinearUpsamplingByTwoWithEachCoordinateMode() throws {
        let scales: [Float] = [1, 1, 1, 2]
        // half_pixel: x_in = (x + 0.5) / 2 - 0.5 → -0.25, 0.25, 0.75, ..., clamped at the edges.
        assertClose(try resize(row, ResizeAttributes(mode: .linear, scales: scales)), [1, 1, 1, 8],
                    [1, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4])
        // align_corners: x_in = x * 3 / 7.
        assertClose(try resize(row, ResizeAttributes(mode: .linear, coordinates: .alignCorners, scales: scales)), [1, 1, 1, 8],
                    (0..<8).map { 1 + Float($0) * 3 / 7 })
        // asymmetric: x_in = x / 2; past the end it repeats the last pixel.
        assertClose(try resize(row, ResizeAttributes(mode: .linear, coordinates: .asymmetric, scales: scales)), [1, 1, 1, 8],
                    [1, 1.5, 2, 2.5, 3, 3.5, 4, 4])
    }

    func testHalfPixelSymmetricCentresAFractionalOutputLength() throws {
        // 5 × 1.5 = 7.5 → 7 pixels: the shift (5/2)(1 − 7/7.5) puts the first and last
        // outputs on the first and last inputs (onnxruntime: 1, 1.667, ..., 5).
        let five = Tensor(uncheckedShape: [1, 1, 1, 5], floats: [1, 2, 3, 4, 5])
        let a = ResizeAttributes(mode: .linear, coordinates: .halfPixelSymmetric, scales: [1, 1, 1, 1.5])
        assertClose(try resize(five, a), [1, 1, 1, 7], (0..<7).map { 1 + Float($0) / 1.5 })
        // A whole output length needs no shift: the same as half_pixel.
        let whole = ResizeAttributes(mode: .linear, coordinates: .halfPixelSymmetric, scales: [1, 1, 1, 2])
        XCTAssertEqual(try resize(row, whole).floats, try resize(row, ResizeAttributes(mode: .linear, scales: [1, 1, 1, 2])).floats)
    }

    func testBilinearOverTwoAxes() throws {
        // 2×2 → 3×3 with align_corners: the centre is the mean of the four.
        let square = Tensor(uncheckedShape: [1, 1, 2, 2], floats: [0, 2, 4, 6])
        assertClose(try resize(square, ResizeAttributes(mode: .linear, coordinates: .alignCorners, sizes: [1, 1, 3, 3])), [1, 1, 3, 3],
                    [0, 1, 2, 2, 3, 4, 4, 5, 6])
    }

    func testNearestRoundingModes() throws {
        // Downsampling 4 → 3 with asymmetric coordinates: x_in = x * 4/3 = 0, 1.33, 2.67.
        func nearest(_ rounding: ResizeAttributes.NearestRounding) throws -> [Float] {
            try resize(row, ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: rounding, sizes: [1, 1, 1, 3])).floats ?? []
        }
        XCTAssertEqual(try nearest(.roundPreferFloor), [1, 2, 4])
        XCTAssertEqual(try nearest(.floor), [1, 2, 3])
        XCTAssertEqual(try nearest(.ceil), [1, 3, 3 + 1])
        // Exactly halfway: 2 → 4 with asymmetric gives x_in = 0, 0.5, 1, 1.5.
        let pair = Tensor(uncheckedShape: [2], floats: [10, 20])
        func halfway(_ rounding: ResizeAttributes.NearestRounding) throws -> [Float] {
            try resize(pair, ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: rounding, scales: [2])).floats ?? []
        }
        XCTAssertEqual(try halfway(.roundPreferFloor), [10, 10, 20, 20])
        XCTAssertEqual(try halfway(.roundPreferCeil), [10, 20, 20, 20])
        // PyTorch exports its nearest upsampling as asymmetric coordinates with floor rounding.
        XCTAssertEqual(try resize(pair, ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: .floor, scales: [2])).floats,
                       [10, 10, 20, 20])
    }

    func testAxesAndBadScalesAndSizes() throws {
        let only = ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: .floor, scales: [2], axes: [-1])
        XCTAssertEqual(try resize(row, only).shape, [1, 1, 1, 8])
        assertFoveaError(.shapeMismatch, "'scales' has 2 values; expected one per axis of X (1×1×1×4)") {
            try self.resize(self.row, ResizeAttributes(mode: .linear, scales: [1, 2]))
        }
        assertFoveaError(.invalidAttribute, "'scales' [1.0, 1.0, 1.0, 0.0] has a value that is not a positive number") {
            try self.resize(self.row, ResizeAttributes(mode: .linear, scales: [1, 1, 1, 0]))
        }
        assertFoveaError(.invalidAttribute, "exactly one of 'scales' and 'sizes'") {
            try self.resize(self.row, ResizeAttributes(mode: .linear, scales: [1, 1, 1, 2], sizes: [1, 1, 1, 8]))
        }
        assertFoveaError(.unsupported, "X has data type int64; Resize computes on float32 only") {
            try self.resize(Tensor(uncheckedShape: [1], storage: .int64([1])), ResizeAttributes(mode: .linear, scales: [2]))
        }
    }
}

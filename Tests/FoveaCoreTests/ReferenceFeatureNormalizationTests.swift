import XCTest
@testable import FoveaCore

/// LayerNormalization, InstanceNormalization and GroupNormalization on the
/// reference backend. Means and deviations by hand: [1, 2, 3, 5] has mean 2.75,
/// variance 2.1875, 1/σ = 0.6761234.
final class ReferenceFeatureNormalizationTests: XCTestCase {
    private let normalized1235: [Float] = [-1.1832160, -0.5070926, 0.1690309, 1.5212777]

    func testLayerNormalizationOverTheLastAxisWithStatistics() throws {
        let x = Tensor(uncheckedShape: [2, 4], floats: [1, 2, 3, 5, 2, 4, 6, 10])
        let scale = Tensor(uncheckedShape: [4], floats: [1, 1, 2, 2])
        let bias = Tensor(uncheckedShape: [1], floats: [0.5])
        let outputs = try evaluate(.layerNormalization(axis: -1, epsilon: 0), [x, scale, bias], outputCount: 3)
        let n = normalized1235
        // The second row is the first doubled: same normalized values.
        let row = [n[0] + 0.5, n[1] + 0.5, 2 * n[2] + 0.5, 2 * n[3] + 0.5]
        assertClose(outputs[0], [2, 4], row + row)
        assertClose(outputs[1], [2, 1], [2.75, 5.5])
        assertClose(outputs[2], [2, 1], [0.6761234, 0.3380617])
    }

    func testLayerNormalizationOverSeveralAxesWithoutBias() throws {
        let x = Tensor(uncheckedShape: [1, 2, 2], floats: [1, 2, 3, 5])
        let scale = Tensor(uncheckedShape: [2, 2], floats: [1, 1, 1, 1])
        assertClose(try evaluate(.layerNormalization(axis: 1, epsilon: 0), [x, scale, nil])[0], [1, 2, 2], normalized1235)
        // Epsilon enters under the square root: variance 0 gives 0, not NaN.
        let flat = Tensor(uncheckedShape: [1, 3], floats: [7, 7, 7])
        assertClose(try evaluate(.layerNormalization(axis: 1, epsilon: 1e-5), [flat, Tensor(uncheckedShape: [3], floats: [1, 1, 1])])[0],
                    [1, 3], [0, 0, 0])
    }

    func testInstanceNormalizationPerImageAndChannel() throws {
        // N=2, C=2, 2×2 planes: each plane is [1, 2, 3, 5] times a factor.
        let plane: [Float] = [1, 2, 3, 5]
        let x = Tensor(uncheckedShape: [2, 2, 2, 2], floats: plane + plane.map { $0 * 3 } + plane.map { $0 * -2 } + plane)
        let scale = Tensor(uncheckedShape: [2], floats: [1, 2])
        let bias = Tensor(uncheckedShape: [2], floats: [0, 1])
        let y = try evaluate1(.instanceNormalization(epsilon: 0), x, scale, bias)
        let n = normalized1235
        let c1 = n.map { 2 * $0 + 1 }
        assertClose(y, [2, 2, 2, 2], n + c1 + n.map { -$0 } + c1)
    }

    func testGroupNormalizationPerGroupAndPerChannelParameters() throws {
        // One image, 4 channels of 1×1 in 2 groups: [1, 2] and [3, 5].
        let x = Tensor(uncheckedShape: [1, 4, 1, 1], floats: [1, 2, 3, 5])
        let perGroup = try evaluate1(.groupNormalization(groups: 2, epsilon: 0, perChannel: false), x,
                                     Tensor(uncheckedShape: [2], floats: [1, 10]), Tensor(uncheckedShape: [2], floats: [0, 100]))
        assertClose(perGroup, [1, 4, 1, 1], [-1, 1, 90, 110])
        let perChannel = try evaluate1(.groupNormalization(groups: 2, epsilon: 0, perChannel: true), x,
                                       Tensor(uncheckedShape: [4], floats: [1, 2, 3, 4]), Tensor(uncheckedShape: [4], floats: [0, 0, 0, 1]))
        assertClose(perChannel, [1, 4, 1, 1], [-1, 2, -3, 5])
        // One group is layer normalization over C×H×W.
        let one = try evaluate1(.groupNormalization(groups: 1, epsilon: 0, perChannel: false), x,
                                Tensor(uncheckedShape: [1], floats: [1]), Tensor(uncheckedShape: [1], floats: [0]))
        assertClose(one, [1, 4, 1, 1], normalized1235)
    }

    func testShapeErrors() {
        let x = Tensor(uncheckedShape: [1, 4, 1, 1], floats: [1, 2, 3, 5])
        let two = Tensor(uncheckedShape: [2], floats: [1, 1])
        assertFoveaError(.invalidAttribute, "'num_groups' is 3; expected a divisor of the 4 channels") {
            try evaluate1(.groupNormalization(groups: 3, epsilon: 0, perChannel: false), x, two, two)
        }
        assertFoveaError(.shapeMismatch, "scale is 2; expected 4 values") {
            try evaluate1(.groupNormalization(groups: 2, epsilon: 0, perChannel: true), x, two, two)
        }
        assertFoveaError(.shapeMismatch, "B is 2; expected 4 values") {
            try evaluate1(.instanceNormalization(epsilon: 0), x, Tensor(uncheckedShape: [4], floats: [1, 1, 1, 1]), two)
        }
        assertFoveaError(.shapeMismatch, "Scale is 2; expected a shape that broadcasts to the normalized axes 4") {
            try evaluate(.layerNormalization(axis: 1, epsilon: 0), [Tensor(uncheckedShape: [1, 4], floats: [1, 2, 3, 4]), two])
        }
        assertFoveaError(.invalidAttribute, "axis 2 is out of range for rank 2") {
            try evaluate(.layerNormalization(axis: 2, epsilon: 0), [Tensor(uncheckedShape: [1, 4], floats: [1, 2, 3, 4]), two])
        }
        assertFoveaError(.shapeMismatch, "expected rank >= 3") {
            try evaluate1(.instanceNormalization(epsilon: 0), Tensor(uncheckedShape: [2, 2], floats: [1, 2, 3, 4]), two, two)
        }
    }
}

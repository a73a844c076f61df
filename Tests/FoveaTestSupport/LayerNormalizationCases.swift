import FoveaCore

/// The LayerNormalization cases every fast backend checks against the
/// reference: normalized over the last axis, over all axes from 1, and one
/// row of odd length; seeded, so every backend sees the same values.
public enum LayerNormalizationCases {
    /// One case: the input and the scale and bias of its normalized shape.
    public struct Case {
        public let shape: [Int]
        public let axis: Int
        public let x: Tensor
        public let scale: Tensor
        public let bias: Tensor

        /// The operator, with the epsilon every case uses.
        public var op: Op { .layerNormalization(axis: axis, epsilon: 1e-5) }
    }

    /// The cases, made from `seed`.
    public static func all(seed: UInt64 = 5) -> [Case] {
        var generator = SeededGenerator(seed: seed)
        return ([([2, 5, 16], -1), ([3, 4, 7], 1), ([1, 33], 1)] as [([Int], Int)]).map { shape, axis in
            let x = LayerCheck.randomTensor(shape, using: &generator)
            let normalized = Array(shape[(axis < 0 ? axis + shape.count : axis)...])
            let scale = LayerCheck.randomTensor(normalized, using: &generator)
            let bias = LayerCheck.randomTensor(normalized, using: &generator)
            return Case(shape: shape, axis: axis, x: x, scale: scale, bias: bias)
        }
    }
}

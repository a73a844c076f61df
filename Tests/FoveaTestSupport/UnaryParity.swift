import XCTest
import FoveaCore

/// Every elementwise activation and math function against the reference
/// backend, for the backends that run them on vectorized approximations (the
/// C kernels' fovea_unary.h, the portable backend's Swift ones): random values, special values (NaN,
/// ±inf, ±0, the largest floats) and a wide sweep.
public enum UnaryParity {
    /// Every standalone elementwise operator with its attributes.
    public static let operators: [Op] = [
        .sigmoid, .hardSigmoid(alpha: 0.2, beta: 0.5), .hardSwish,
        .unary(.exp), .unary(.log(epsilon: 0)), .unary(.tanh), .unary(.erf), .unary(.sqrt), .unary(.abs), .unary(.neg),
        .unary(.floor), .unary(.ceil), .unary(.reciprocal(epsilon: 0)), .unary(.rsqrt(epsilon: 1e-5)),
        .unary(.power(exponent: 2)), .unary(.power(exponent: 0.5)), .unary(.power(exponent: 1.7)),
        .unary(.linear(alpha: 0.5, beta: -1)), .unary(.threshold(alpha: 0.25)), .unary(.thresholdedRelu(alpha: 1)),
        .unary(.elu(alpha: 1)), .unary(.selu(alpha: 1.6732632, gamma: 1.050701)), .unary(.celu(alpha: 1.5)),
        .unary(.softplus), .unary(.softsign), .unary(.mish), .unary(.silu),
        .unary(.gelu(tanhApproximation: false)), .unary(.gelu(tanhApproximation: true)),
    ]

    /// Checks every operator on `backend` (which must run each one itself).
    public static func check(_ backend: any Backend, file: StaticString = #filePath, line: UInt = #line) throws {
        var generator = SeededGenerator(seed: 19)
        let random = LayerCheck.randomTensorWithSpecials([2, 3, 37], using: &generator)
        let wide = try Tensor(shape: [1, 4001], floats: (0...4000).map { Float($0 - 2000) * 0.05 })
        let huge = try Tensor(shape: [7], floats: [1e30, -1e30, 3e38, -3e38, 1e-40, -1e-40, 88.5])
        for op in operators {
            for (name, input) in [("random", random), ("sweep [-100, 100]", wide), ("extremes", huge)] {
                // |x| up to 100 in the sweep: GELU's bound is 2^-21·|x| absolute.
                let absolute: Float = name == "random" ? 1e-5 : 1e-4
                try LayerCheck.check(backend, op, [input], tolerance: Tolerance(absolute: absolute, relative: 2e-5),
                                     threads: 2, "\(op.typeName) \(op) \(name)", file: file, line: line)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Resize in nearest and linear modes, one axis at a time (separable, as the
/// ONNX reference implementation computes it), in Double.
enum ReferenceResize {
    static func run(_ args: ReferenceInputs, _ a: ResizeAttributes) throws -> Tensor {
        let x = try args.tensor(0)
        var values = try x.requireFloats("X").map(Double.init)
        let (outputShape, scales) = try a.geometry(inputShape: x.shape)
        var shape = x.shape
        for axis in shape.indices where outputShape[axis] != shape[axis] || scales[axis] != 1 {
            let axisTaps = (0..<outputShape[axis]).map { taps(at: $0, input: shape[axis], output: outputShape[axis], scale: scales[axis], a) }
            (values, shape) = apply(axisTaps, along: axis, values, shape, outputExtent: outputShape[axis])
        }
        return Tensor(uncheckedShape: outputShape, floats: values.map(Float.init))
    }

    /// The input coordinate of output index `x` along an axis.
    static func sourceCoordinate(_ x: Int, input: Int, output: Int, scale: Float, _ mode: ResizeAttributes.CoordinateTransformation) -> Double {
        let x = Double(x), scale = Double(scale)
        switch mode {
        case .halfPixel: return (x + 0.5) / scale - 0.5
        case .pytorchHalfPixel: return output > 1 ? (x + 0.5) / scale - 0.5 : 0
        // The output length here is scale × input, as the ONNX reference writes it.
        case .alignCorners:
            let length = scale * Double(input)
            return length == 1 ? 0 : x * Double(input - 1) / (length - 1)
        case .asymmetric: return x / scale
        case .tfHalfPixelForNN: return (x + 0.5) / scale
        // The spec's offset = (input / 2) × (1 − output / (input × scale)): zero when the scale gives whole pixels.
        case .halfPixelSymmetric:
            let adjustment = Double(output) / (scale * Double(input))
            return Double(input) / 2 * (1 - adjustment) + (x + 0.5) / scale - 0.5
        }
    }

    /// The input indices (clamped to the axis) and weights that make output index `x`.
    private static func taps(at x: Int, input: Int, output: Int, scale: Float, _ a: ResizeAttributes) -> [(index: Int, weight: Double)] {
        let source = sourceCoordinate(x, input: input, output: output, scale: scale, a.coordinates)
        let lower = floor(source), fraction = source - lower
        func clamped(_ i: Double) -> Int { Swift.min(Swift.max(Int(i), 0), input - 1) }
        switch a.mode {
        case .linear:
            return [(clamped(lower), 1 - fraction), (clamped(lower + 1), fraction)]
        case .nearest:
            // Between two pixels the rounding mode picks; on a pixel it is that pixel.
            let up: Bool
            switch a.nearestRounding {
            case .roundPreferFloor: up = fraction > 0.5
            case .roundPreferCeil: up = fraction >= 0.5
            case .floor: up = false
            case .ceil: up = fraction > 0
            }
            return [(clamped(up ? lower + 1 : lower), 1)]
        }
    }

    /// Resamples `values` (of `shape`) along `axis` to `outputExtent`.
    private static func apply(_ taps: [[(index: Int, weight: Double)]], along axis: Int, _ values: [Double], _ shape: [Int],
                              outputExtent: Int) -> ([Double], [Int]) {
        let outer = shape[..<axis].reduce(1, *), inner = shape[(axis + 1)...].reduce(1, *), length = shape[axis]
        var output = [Double](repeating: 0, count: outer * outputExtent * inner)
        for o in 0..<outer {
            for (k, pixelTaps) in taps.enumerated() {
                for i in 0..<inner {
                    var sum = 0.0
                    for tap in pixelTaps { sum += tap.weight * values[(o * length + tap.index) * inner + i] }
                    output[(o * outputExtent + k) * inner + i] = sum
                }
            }
        }
        var newShape = shape
        newShape[axis] = outputExtent
        return (output, newShape)
    }
}

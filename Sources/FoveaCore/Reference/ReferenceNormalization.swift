#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// BatchNormalization (inference), LRN, Softmax and LogSoftmax; LRN's sums of
/// squares and Softmax's exponentials and sums are computed in Double.
enum ReferenceNormalization {
    /// `scale * (x - mean) / sqrt(var + epsilon) + bias`, per channel (axis 1), any rank ≥ 2.
    static func batchNormalization(_ args: ReferenceInputs, epsilon: Float) throws -> Tensor {
        let x = try args.tensor(0)
        var values = try x.requireFloats("X")
        let scale = try args.floats(1), bias = try args.floats(2)
        let mean = try args.floats(3), variance = try args.floats(4)
        let channels = x.shape[1]
        let planeSize = x.shape.dropFirst(2).reduce(1, *)
        for plane in 0..<(x.shape[0] * channels) {
            let c = plane % channels
            let factor = scale[c] / (variance[c] + epsilon).squareRoot()
            let shift = bias[c] - mean[c] * factor
            for i in (plane * planeSize)..<((plane + 1) * planeSize) {
                values[i] = values[i] * factor + shift
            }
        }
        return Tensor(uncheckedShape: x.shape, floats: values)
    }

    /// `x / (bias + alpha / size * Σ x²)^beta`, the sum over channels
    /// `c - floor((size-1)/2) ... c + ceil((size-1)/2)` clipped to the valid ones.
    static func lrn(_ args: ReferenceInputs, _ a: LRNAttributes) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        let channels = x.shape[1]
        let planeSize = x.shape.dropFirst(2).reduce(1, *)
        let before = (a.size - 1) / 2, after = a.size - 1 - before
        var output = [Float](repeating: 0, count: input.count)
        for n in 0..<x.shape[0] {
            for c in 0..<channels {
                let window = Swift.max(0, c - before)...Swift.min(channels - 1, c + after)
                for i in 0..<planeSize {
                    var squares: Double = 0
                    for other in window {
                        let v = Double(input[(n * channels + other) * planeSize + i])
                        squares += v * v
                    }
                    let index = (n * channels + c) * planeSize + i
                    let base = Double(a.bias) + Double(a.alpha) / Double(a.size) * squares
                    output[index] = Float(Double(input[index]) / pow(base, Double(a.beta)))
                }
            }
        }
        return Tensor(uncheckedShape: x.shape, floats: output)
    }

    /// Softmax or LogSoftmax along `axis`, or (opset < 13, `coercedTo2D`) over
    /// all axes from `axis` on, with the max subtracted for stability.
    static func softmax(_ args: ReferenceInputs, _ a: SoftmaxAttributes, logarithm: Bool) throws -> Tensor {
        let x = try args.tensor(0)
        var values = try x.requireFloats("input")
        let axis = try normalizedAxis(a.axis, rank: x.rank)
        // The data as [outer, length, inner]; the softmax runs along `length`.
        let outer = x.shape[..<axis].reduce(1, *)
        let length = a.coercedTo2D ? x.shape[axis...].reduce(1, *) : x.shape[axis]
        let inner = a.coercedTo2D ? 1 : x.shape[(axis + 1)...].reduce(1, *)
        for o in 0..<outer {
            for i in 0..<inner {
                let indices = (0..<length).map { (o * length + $0) * inner + i }
                let maximum = indices.reduce(-Float.infinity) { Swift.max($0, values[$1]) }
                // Exponentials and their sum in Double, rounded to Float once.
                let total = indices.reduce(0.0) { $0 + exp(Double(values[$1] - maximum)) }
                for index in indices {
                    let shifted = Double(values[index] - maximum)
                    values[index] = Float(logarithm ? shifted - log(total) : exp(shifted) / total)
                }
            }
        }
        return Tensor(uncheckedShape: x.shape, floats: values)
    }
}

import Foundation
import FoveaCore

/// Decodes `WeightParams` into floats: `floatValue`, `float16Value`, raw
/// float32 bytes, and quantized `rawValue` (linear or lookup table, 1 to 8 bits),
/// dequantized here so the graph only holds float32.
enum CoreMLWeights {
    /// The values of `params`, which must hold exactly `count` of them.
    ///
    /// - Parameters:
    ///   - role: names the blob in messages (`weights`, `bias`, ...).
    ///   - channels: the number of leading-axis blocks a per-channel linear
    ///     quantization may use (output channels for weights).
    static func decode(_ params: CoreML_Specification_WeightParams, count: Int, role: String, channels: Int = 1) throws -> [Float] {
        let values = try decodeAny(params, count: count, role: role, channels: channels)
        guard values.count == count else {
            throw FoveaError(.invalidModel, "\(role) holds \(values.count) values; expected \(count)")
        }
        return values
    }

    private static func decodeAny(_ p: CoreML_Specification_WeightParams, count: Int, role: String, channels: Int) throws -> [Float] {
        let encodings = [!p.floatValue.isEmpty, !p.float16Value.isEmpty, !p.rawValue.isEmpty, !p.int8RawValue.isEmpty].filter { $0 }.count
        guard encodings <= 1 else {
            throw FoveaError(.invalidModel, "\(role) sets \(encodings) value fields; expected one of floatValue, float16Value, rawValue")
        }
        if p.hasQuantization {
            guard !p.rawValue.isEmpty || count == 0 else {
                throw FoveaError(.invalidModel, "\(role) is quantized but has no rawValue bytes")
            }
            return try dequantize(p.rawValue, p.quantization, count: count, role: role, channels: channels)
        }
        if !p.floatValue.isEmpty { return p.floatValue }
        if !p.float16Value.isEmpty { return try float16Values(p.float16Value, role: role) }
        if !p.rawValue.isEmpty { return try float32Values(p.rawValue, role: role) }
        if !p.int8RawValue.isEmpty {
            throw FoveaError(.unsupported, "\(role) uses int8RawValue (int8 weights for dynamic quantization, spec 5); Fovea reads floatValue, float16Value and rawValue")
        }
        return []
    }

    /// Little-endian IEEE 754 half floats.
    static func float16Values(_ data: Data, role: String) throws -> [Float] {
        guard data.count % 2 == 0 else {
            throw FoveaError(.invalidModel, "\(role) float16Value has \(data.count) bytes; expected an even number (2 per value)")
        }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 2).map { i in
            Float(halfBits: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)
        }
    }

    /// Little-endian float32.
    static func float32Values(_ data: Data, role: String) throws -> [Float] {
        guard data.count % 4 == 0 else {
            throw FoveaError(.invalidModel, "\(role) rawValue has \(data.count) bytes; expected a multiple of 4 (float32)")
        }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 4).map { i in
            let bits = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            return Float(bitPattern: bits)
        }
    }

    /// Unpacks `count` indices of `bits` bits each, most significant bit first
    /// (coremltools' packing), then maps them through the quantization.
    private static func dequantize(_ data: Data, _ q: CoreML_Specification_QuantizationParams, count: Int, role: String, channels: Int) throws -> [Float] {
        let bits = Int(clamping: q.numberOfBits)
        guard (1...8).contains(bits) else {
            throw FoveaError(.unsupported, "\(role) is quantized to \(q.numberOfBits) bits; Fovea reads 1 to 8 bits")
        }
        let needed = (count * bits + 7) / 8
        guard data.count == needed else {
            throw FoveaError(.invalidModel, "\(role) rawValue has \(data.count) bytes; \(count) values of \(bits) bits need \(needed)")
        }
        let bytes = [UInt8](data)
        var indices = [Int](repeating: 0, count: count)
        for i in 0..<count {
            var value = 0
            for b in 0..<bits {
                let bit = i * bits + b
                value = value << 1 | Int((bytes[bit >> 3] >> (7 - UInt8(bit & 7))) & 1)
            }
            indices[i] = value
        }
        switch q.quantizationType {
        case .lookupTableQuantization(let table):
            let lut = table.floatValue
            guard lut.count == 1 << bits else {
                throw FoveaError(.invalidModel, "\(role) lookup table has \(lut.count) entries; expected \(1 << bits) for \(bits)-bit indices")
            }
            return indices.map { lut[$0] }
        case .linearQuantization(let linear):
            // value = scale[c] × q + bias[c], one (scale, bias) per leading-axis block or one for all.
            let blocks = linear.scale.count
            guard blocks == 1 || (blocks == channels && channels > 0 && count % channels == 0) else {
                throw FoveaError(.invalidModel, "\(role) linear quantization has \(blocks) scales; expected 1 or \(channels) (one per output channel)")
            }
            guard linear.bias.isEmpty || linear.bias.count == blocks else {
                throw FoveaError(.invalidModel, "\(role) linear quantization has \(linear.bias.count) biases; expected \(blocks) (one per scale)")
            }
            let blockSize = blocks == 1 ? Swift.max(count, 1) : count / blocks
            return indices.enumerated().map { i, q in
                let block = i / blockSize
                return linear.scale[block] * Float(q) + (linear.bias.isEmpty ? 0 : linear.bias[block])
            }
        case nil:
            throw FoveaError(.invalidModel, "\(role) has quantization parameters without a linear or lookup-table quantization")
        }
    }
}

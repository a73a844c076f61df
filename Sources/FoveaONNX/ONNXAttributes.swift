import Foundation
import FoveaCore

/// A node's attributes by name, read with type checks.
///
/// Every getter records the name it was asked for, so that once an operator has
/// read all the attributes its opset defines, ``rejectUnread(opType:opset:)``
/// can refuse any other: an attribute Fovea does not know would otherwise be
/// silently ignored and could change the result.
final class ONNXAttributes {
    private let byName: [String: Onnx_AttributeProto]
    private var read = Set<String>()

    init(_ attributes: [Onnx_AttributeProto]) throws {
        var byName: [String: Onnx_AttributeProto] = [:]
        for attribute in attributes {
            guard !attribute.name.isEmpty else {
                throw FoveaError(.invalidModel, "an attribute has no name")
            }
            guard byName.updateValue(attribute, forKey: attribute.name) == nil else {
                throw FoveaError(.invalidModel, "attribute '\(attribute.name)' is given twice")
            }
        }
        self.byName = byName
    }

    /// Whether the node sets `name` (counts as reading it).
    func has(_ name: String) -> Bool {
        read.insert(name)
        return byName[name] != nil
    }

    func int(_ name: String) throws -> Int? {
        guard let attribute = try lookup(name, expecting: .int) else { return nil }
        return Int(truncatingIfNeeded: attribute.i)
    }

    func int(_ name: String, default value: Int) throws -> Int {
        try int(name) ?? value
    }

    /// An INT attribute that must be 0 or 1.
    func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let number = try int(name) else { return value }
        guard number == 0 || number == 1 else {
            throw FoveaError(.invalidAttribute, "attribute '\(name)' is \(number); expected 0 or 1")
        }
        return number == 1
    }

    func ints(_ name: String) throws -> [Int]? {
        guard let attribute = try lookup(name, expecting: .ints) else { return nil }
        return attribute.ints.map { Int(truncatingIfNeeded: $0) }
    }

    /// A FLOAT attribute; an INT is accepted too, as some exporters write `alpha: 1`.
    func float(_ name: String) throws -> Float? {
        guard let attribute = byName[name] else {
            read.insert(name)
            return nil
        }
        if Self.type(of: attribute) == .int {
            read.insert(name)
            return Float(attribute.i)
        }
        return try lookup(name, expecting: .float)?.f
    }

    func float(_ name: String, default value: Float) throws -> Float {
        try float(name) ?? value
    }

    func floats(_ name: String) throws -> [Float]? {
        try lookup(name, expecting: .floats)?.floats
    }

    func string(_ name: String) throws -> String? {
        guard let attribute = try lookup(name, expecting: .string) else { return nil }
        guard let text = String(data: attribute.s, encoding: .utf8) else {
            throw FoveaError(.invalidModel, "attribute '\(name)' is not valid UTF-8")
        }
        return text
    }

    func tensor(_ name: String) throws -> Onnx_TensorProto? {
        try lookup(name, expecting: .tensor)?.t
    }

    /// Throws for the first attribute no getter asked for.
    func rejectUnread(opType: String, opset: Int) throws {
        if let name = byName.keys.sorted().first(where: { !read.contains($0) }) {
            throw FoveaError(.invalidAttribute, "unexpected attribute '\(name)'; \(opType) in opset \(opset) does not define it")
        }
    }

    // MARK: -

    private func lookup(_ name: String, expecting expected: Onnx_AttributeProto.AttributeType) throws -> Onnx_AttributeProto? {
        read.insert(name)
        guard let attribute = byName[name] else { return nil }
        let found = Self.type(of: attribute)
        guard found == expected else {
            throw FoveaError(.invalidAttribute, "attribute '\(name)' has type \(Self.name(found)); expected \(Self.name(expected))")
        }
        return attribute
    }

    /// The declared type, or for old files that leave `type` unset, the one implied by the field that is set.
    private static func type(of attribute: Onnx_AttributeProto) -> Onnx_AttributeProto.AttributeType {
        if attribute.type != .undefined { return attribute.type }
        if attribute.hasF { return .float }
        if attribute.hasI { return .int }
        if attribute.hasS { return .string }
        if attribute.hasT { return .tensor }
        if !attribute.floats.isEmpty { return .floats }
        if !attribute.ints.isEmpty { return .ints }
        if !attribute.strings.isEmpty { return .strings }
        if !attribute.tensors.isEmpty { return .tensors }
        return .undefined
    }

    private static func name(_ type: Onnx_AttributeProto.AttributeType) -> String {
        switch type {
        case .undefined: return "UNDEFINED"
        case .float: return "FLOAT"
        case .int: return "INT"
        case .string: return "STRING"
        case .tensor: return "TENSOR"
        case .graph: return "GRAPH"
        case .sparseTensor: return "SPARSE_TENSOR"
        case .typeProto: return "TYPE_PROTO"
        case .floats: return "FLOATS"
        case .ints: return "INTS"
        case .strings: return "STRINGS"
        case .tensors: return "TENSORS"
        case .graphs: return "GRAPHS"
        case .sparseTensors: return "SPARSE_TENSORS"
        case .typeProtos: return "TYPE_PROTOS"
        }
    }
}

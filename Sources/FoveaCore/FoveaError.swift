import Foundation

/// The one error type Fovea throws.
///
/// Every failure — a truncated model, an unsupported operator, a wrong shape, a
/// corrupt image — is a `FoveaError` whose ``description`` is a single line that
/// names where it happened (file, node, op type, opset) and what was wrong
/// (the attribute, the expected and the found value).
///
/// ```
/// squeezenet.onnx: node 'conv1' (Conv, opset 13): attribute 'group' is 0; expected >= 1
/// ```
///
/// `"\(error)"`, ``description`` and `error.localizedDescription` (through
/// ``errorDescription``, as `LocalizedError`) all give this same line.
public struct FoveaError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What went wrong, broadly; use it to react programmatically.
    public enum Kind: String, Sendable, Equatable {
        /// The model file is not a valid model (truncated, garbage, inconsistent graph).
        case invalidModel
        /// The model uses an operator, an operator form or a data type Fovea does not run.
        case unsupported
        /// An attribute has a value outside what the operator allows.
        case invalidAttribute
        /// Tensor shapes do not fit together.
        case shapeMismatch
        /// An image could not be decoded or converted.
        case invalidImage
        /// A file could not be read or written.
        case io
        /// An argument passed by the caller is wrong (a missing input, a bad option).
        case invalidArgument
        /// A model, an input or an image needs more than a configured limit
        /// (``MemoryLimit``, the image decoder's pixel limit); refused before allocating.
        case limitExceeded
    }

    /// Where the error happened. Every field is optional; the loader and the
    /// executor fill in what they know as the error travels up.
    public struct Location: Sendable, Equatable {
        /// The model or image file being read, if known.
        public var file: String?
        /// The name of the graph node that failed, if any.
        public var node: String?
        /// The failing node's operator (`Conv`, `Resize`, ...), if any.
        public var opType: String?
        /// The opset of the failing node's operator domain, if known.
        public var opset: Int?

        /// Creates a location with whatever is known.
        public init(file: String? = nil, node: String? = nil, opType: String? = nil, opset: Int? = nil) {
            self.file = file
            self.node = node
            self.opType = opType
            self.opset = opset
        }
    }

    /// The category of the failure: what a caller can switch on.
    public var kind: Kind
    /// What went wrong, in one line for a person to read.
    public var message: String
    /// Where it went wrong: file, node, operator.
    public var location: Location

    /// Creates an error of `kind` with a one-line `message`.
    public init(_ kind: Kind, _ message: String, location: Location = Location()) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// A one-line message: `file: node 'name' (OpType, opset N): message`,
    /// safe to print: names from files may hold control characters, which are
    /// spelled out (``SafeText``).
    public var description: String {
        SafeText.escaped(rawDescription)
    }

    /// The same line as ``description``, so that `error.localizedDescription`
    /// (Foundation's, used by UI code and loggers) reads as well as `"\(error)"`.
    public var errorDescription: String? {
        description
    }

    /// ``description`` before its control characters are escaped.
    var rawDescription: String {
        var prefix = ""
        if let file = location.file { prefix += "\(file): " }
        if let node = location.node {
            prefix += "node '\(node)'"
            var details: [String] = []
            if let op = location.opType { details.append(op) }
            if let opset = location.opset { details.append("opset \(opset)") }
            if !details.isEmpty { prefix += " (\(details.joined(separator: ", ")))" }
            prefix += ": "
        } else if let op = location.opType {
            prefix += "\(op): "
        }
        return prefix + message
    }

    /// Returns a copy with the missing location fields filled from `outer`.
    public func located(_ outer: Location) -> FoveaError {
        var copy = self
        copy.location.file = copy.location.file ?? outer.file
        copy.location.node = copy.location.node ?? outer.node
        copy.location.opType = copy.location.opType ?? outer.opType
        copy.location.opset = copy.location.opset ?? outer.opset
        return copy
    }
}

extension FoveaError {
    /// Runs `body`, attaching `location` to any `FoveaError` it throws.
    public static func at<T>(_ location: Location, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FoveaError {
            throw error.located(location)
        }
    }
}

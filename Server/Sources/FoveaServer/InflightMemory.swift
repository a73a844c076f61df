import Foundation
import FoveaServerProtocol

/// The server-wide budget of memory that requests in flight may hold. Each
/// request reserves an estimate of what it will need *before* its body is read
/// (from its declared lengths) and gives it back when answered; a request that
/// does not fit is refused (503, RESOURCE_EXHAUSTED) instead of taking the
/// process past its memory.
public final class InflightMemory: @unchecked Sendable {
    // @unchecked: `reserved` is only touched while holding `lock`.
    /// Bytes of memory one byte of JSON text takes while parsed into Foundation
    /// objects and flattened (measured about 36 on Linux, rounded up).
    public static let jsonBytesPerByte = 40
    /// Bytes of memory one byte of binary tensor data takes: the body, the
    /// decoded elements and the model's input tensor.
    public static let binaryBytesPerByte = 3

    public let limit: Int
    private let lock = NSLock()
    private var reserved = 0

    public init(limit: Int) {
        self.limit = limit
    }

    /// The bytes reserved now.
    public var inUse: Int { lock.withLock { reserved } }

    /// The estimate for a REST body of `jsonBytes` of JSON and `binaryBytes` of binary data.
    public static func estimate(jsonBytes: Int, binaryBytes: Int) -> Int {
        TensorSize.sum(TensorSize.product(jsonBytes, jsonBytesPerByte), TensorSize.product(binaryBytes, binaryBytesPerByte))
    }

    /// Runs `body` holding `bytes` of the budget, or throws `.exhausted` at once
    /// when they do not fit beside what requests in flight hold.
    public func holding<T>(_ bytes: Int, _ body: () async throws -> T) async throws -> T {
        let granted = lock.withLock {
            guard bytes <= limit - reserved else { return false }
            reserved += bytes
            return true
        }
        guard granted else {
            throw InferenceError(.exhausted, "the server is busy: requests in flight hold \(inUse) of \(limit) bytes and this one needs \(bytes); try again later")
        }
        defer { lock.withLock { reserved -= bytes } }
        return try await body()
    }
}

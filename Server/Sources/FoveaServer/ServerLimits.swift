/// Limits that keep one request from taking the server down.
public struct ServerLimits: Sendable, Equatable {
    /// The largest request body (REST) or message (gRPC) accepted, in bytes.
    public var maxRequestBytes: Int
    /// The most pixels a decoded photo may have (width × height).
    public var maxImagePixels: Int

    public init(maxRequestBytes: Int = 64 << 20, maxImagePixels: Int = 50_000_000) {
        self.maxRequestBytes = maxRequestBytes
        self.maxImagePixels = maxImagePixels
    }
}

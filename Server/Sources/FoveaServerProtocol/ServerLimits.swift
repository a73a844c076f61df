/// Limits that keep one request, one client or many of them from taking the
/// server down. The defaults follow what nginx and Envoy ship with, scaled to
/// an inference server whose requests are at most tens of megabytes.
public struct ServerLimits: Sendable, Equatable {
    /// The largest request body (REST) or message (gRPC) accepted, in bytes.
    public var maxRequestBytes: Int
    /// The largest JSON part of a REST body, in bytes. Parsed JSON costs tens of
    /// bytes per byte of text, so it has a limit well below ``maxRequestBytes``;
    /// larger tensors go as binary data.
    public var maxJSONBytes: Int
    /// The most pixels a decoded photo may have (width × height).
    public var maxImagePixels: Int
    /// The most pixels all the photos of one request may have together.
    public var maxRequestPixels: Int
    /// The memory that requests in flight may hold together (their bodies and
    /// decoded tensors, estimated before reading them); beyond it new requests
    /// get 503 / RESOURCE_EXHAUSTED.
    public var maxInflightBytes: Int
    /// The most open HTTP connections; further ones wait in the listen backlog.
    public var maxConnections: Int
    /// How long a request's headers, and then its body, may take to arrive.
    public var readTimeout: Duration
    /// How long a kept-alive connection may sit idle between requests.
    public var idleTimeout: Duration
    /// On SIGTERM: how long in-flight requests have to finish before the ports close.
    public var drainTimeout: Duration

    public init(maxRequestBytes: Int = 64 << 20, maxJSONBytes: Int = 8 << 20,
                maxImagePixels: Int = 50_000_000, maxRequestPixels: Int = 100_000_000,
                maxInflightBytes: Int = 1 << 30, maxConnections: Int = 512,
                readTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
                drainTimeout: Duration = .seconds(20)) {
        self.maxRequestBytes = maxRequestBytes
        self.maxJSONBytes = maxJSONBytes
        self.maxImagePixels = maxImagePixels
        self.maxRequestPixels = maxRequestPixels
        self.maxInflightBytes = maxInflightBytes
        self.maxConnections = maxConnections
        self.readTimeout = readTimeout
        self.idleTimeout = idleTimeout
        self.drainTimeout = drainTimeout
    }
}

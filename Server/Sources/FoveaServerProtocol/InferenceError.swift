/// A failed protocol call: what the client did wrong (or what the server could
/// not do), with the HTTP status and gRPC status code that the Open Inference
/// Protocol's REST and gRPC front ends answer with. The message is what the
/// client reads in `{"error": "..."}` or the gRPC status message.
public struct InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure; picks the status codes.
    public enum Kind: String, Sendable, Equatable {
        /// A malformed request: bad JSON, wrong shape, wrong datatype, missing input.
        case invalidArgument
        /// No such model or version.
        case notFound
        /// The body is larger than the configured limit.
        case tooLarge
        /// The request waited in the queue longer than the configured timeout.
        case timeout
        /// The server is shutting down and takes no new work.
        case unavailable
        /// The server's budget for requests in flight (memory) is spent: try again later.
        case exhausted
        /// The client went away before its request was read in full.
        case clientDisconnected
        /// The model failed to run an input it accepted.
        case internalError
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The REST status code.
    public var httpStatus: Int {
        switch kind {
        case .invalidArgument: return 400
        case .notFound: return 404
        case .tooLarge: return 413
        case .timeout: return 504
        case .unavailable: return 503
        case .exhausted: return 503
        // nginx's "client closed request": never sent (nobody is there to read it), but logged.
        case .clientDisconnected: return 499
        case .internalError: return 500
        }
    }

    /// A malformed request (`.invalidArgument`).
    public static func invalid(_ message: String) -> InferenceError { InferenceError(.invalidArgument, message) }
}

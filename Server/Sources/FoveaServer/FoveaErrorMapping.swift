import Fovea
import FoveaServerProtocol

/// Fovea's errors as protocol errors: what the caller got wrong is a 400
/// (`INVALID_ARGUMENT`), what the engine could not do a 500.
protocol FoveaErrorDescribing {
    var inferenceError: InferenceError { get }
}

extension FoveaError: FoveaErrorDescribing {
    var inferenceError: InferenceError {
        switch kind {
        case .invalidArgument, .shapeMismatch, .invalidImage, .limitExceeded:
            return InferenceError(.invalidArgument, message)
        default:
            return InferenceError(.internalError, description)
        }
    }
}

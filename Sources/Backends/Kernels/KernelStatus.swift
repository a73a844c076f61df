import CFoveaKernels
import FoveaCore

/// Turns a C kernel's `fovea_status` into a ``FoveaError``.
public enum KernelStatus {
    /// Throws unless `status` is `FOVEA_STATUS_OK`; `what` names the call for the message.
    public static func check(_ status: fovea_status, _ what: @autoclosure () -> String) throws {
        guard status != FOVEA_STATUS_OK else { return }
        let description = String(cString: fovea_status_description(status))
        let kind: FoveaError.Kind
        switch status {
        case FOVEA_STATUS_INVALID_PARAMETER, FOVEA_STATUS_EMPTY_WINDOW: kind = .shapeMismatch
        case FOVEA_STATUS_UNKNOWN_ISA, FOVEA_STATUS_UNSUPPORTED_ISA: kind = .unsupported
        // A quantization the int8 kernels do not compute (a non-zero weight zero point): the reference does.
        case FOVEA_STATUS_UNSUPPORTED_QUANTIZATION: kind = .unsupported
        default: kind = .invalidArgument
        }
        throw FoveaError(kind, "\(what()): \(description)")
    }
}

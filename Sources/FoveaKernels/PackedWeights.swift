import Foundation

/// Weights packed by a C kernel at plan time: a 64-byte aligned buffer that
/// the prepared step owns and every run only reads.
final class PackedWeights: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    /// Allocates `byteCount` bytes and lets `pack` fill them.
    init(byteCount: Int, _ pack: (UnsafeMutableRawPointer, Int) throws -> Void) rethrows {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(byteCount, 1), alignment: 64)
        do {
            try pack(bytes, byteCount)
        } catch {
            bytes.deallocate()
            throw error
        }
    }

    deinit { bytes.deallocate() }
}

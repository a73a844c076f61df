import Foundation

/// Weights packed by a C kernel at plan time: a 64-byte aligned buffer that
/// the prepared step owns and every run only reads, placed on huge pages
/// (``WeightSlab``).
final class PackedWeights: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    /// The huge-page chunk holding `bytes`; it lives as long as any buffer in it.
    private let chunk: WeightChunk

    /// Allocates `byteCount` bytes and lets `pack` fill them.
    init(byteCount: Int, _ pack: (UnsafeMutableRawPointer, Int) throws -> Void) rethrows {
        self.byteCount = byteCount
        (bytes, chunk) = WeightSlab.shared.place(byteCount: byteCount)
        // A failed packing leaves its bytes unused in the chunk: plans that fail are rare.
        try pack(bytes, byteCount)
    }
}

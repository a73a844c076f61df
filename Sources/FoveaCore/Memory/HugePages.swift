#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Large, long-lived buffers (arenas, packed weights) on transparent huge
/// pages where Linux offers them (`madvise` mode), so that a network's
/// weights and activations are covered by a few TLB entries instead of
/// thousands of 4 KiB pages.
///
/// Why: a MobileNetV2 inference touches about 14 MB of weights and 10 MB of
/// activations, more than the second-level TLB covers with 4 KiB pages (Zen 4:
/// 3072 entries, 12 MB), so the layers that stream weights from memory also
/// walk page tables. The measured gain is in Benchmarks/results/ (docs/performance.md).
public enum HugePages {
    /// Bytes of one huge page (2 MiB: x86-64 Linux, and arm64 Linux with 4 KiB pages).
    public static let pageBytes = 2 << 20

    /// Allocates `byteCount` bytes aligned to `alignment`. A buffer of at least
    /// half a huge page is rounded up to whole huge pages, aligned to one and
    /// advised as huge pages (Linux; elsewhere a plain aligned allocation).
    /// Release it with ``deallocate(_:)``.
    public static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        #if os(Linux)
        if byteCount >= pageBytes / 2 {
            let rounded = (byteCount + pageBytes - 1) / pageBytes * pageBytes
            var memory: UnsafeMutableRawPointer?
            if posix_memalign(&memory, Swift.max(pageBytes, alignment), rounded) == 0, let memory {
                // Advice only: without huge pages the buffer works the same.
                _ = madvise(memory, rounded, Int32(MADV_HUGEPAGE))
                return memory
            }
        }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Swift.max(alignment, MemoryLayout<Int>.size), Swift.max(byteCount, 1)) == 0,
              let memory else { fatalError("HugePages: out of memory allocating \(byteCount) bytes") }
        return memory
        #else
        return UnsafeMutableRawPointer.allocate(byteCount: Swift.max(byteCount, 1), alignment: alignment)
        #endif
    }

    /// Releases a buffer from ``allocate(byteCount:alignment:)``.
    public static func deallocate(_ memory: UnsafeMutableRawPointer) {
        #if os(Linux)
        free(memory)
        #else
        memory.deallocate()
        #endif
    }
}

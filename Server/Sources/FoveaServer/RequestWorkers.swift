import Foundation
import NIOPosix

/// The server's own bounded pool of threads for the CPU-heavy part of a
/// request that is not inference: parsing JSON and protobuf tensors, decoding
/// and preparing photos. Never the cooperative threads, which accept
/// connections and answer health checks: those must answer within
/// milliseconds however many photos are being decoded.
public final class RequestWorkers: Sendable {
    private let pool: NIOThreadPool
    public let threads: Int

    public init(threads: Int) {
        self.threads = max(1, threads)
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    /// Runs `body` on one of the pool's threads; the calling task waits without
    /// holding a cooperative thread.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    /// One thread per core: used by models made outside a ``ServeApplication`` (tests, embedding).
    public static let shared = RequestWorkers(threads: ProcessInfo.processInfo.activeProcessorCount)
}

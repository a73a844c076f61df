import Foundation
import FoveaBatching
import CoreMetrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus
/// registry of its own (not the global `MetricsSystem`, so that several
/// servers, as in tests, keep separate counts) and served at `GET /metrics`.
public final class ServerMetrics: Sendable {
    /// The outcome label of a request.
    public enum Outcome: String, Sendable {
        case success, failure
        /// The client went away before its request was read: not the server's failure.
        case disconnected
    }

    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // 0.5 ms to 5 s: one SqueezeNet run is a few ms, a queued batch tens.
        factory.defaultDurationHistogramBuckets = [500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
                                                   1_000_000, 2_000_000, 5_000_000].map { Duration.microseconds($0) }
        factory.valueHistogramBuckets = ["fovea_batch_size": [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64]]
        self.factory = factory
    }

    /// Counts one finished request (`fovea_requests_total{model, protocol, outcome}`).
    public func countRequest(model: String, protocol name: String, outcome: Outcome) {
        Counter(label: "fovea_requests_total", dimensions: [("model", model), ("protocol", name), ("outcome", outcome.rawValue)], factory: factory).increment()
    }

    /// Counts one connection-level rejection (`fovea_rejections_total{reason}`):
    /// HTTP parse errors, read timeouts, the connection limit.
    public func countRejection(reason: String) {
        Counter(label: "fovea_rejections_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Tracks in-flight requests (`fovea_inflight_requests{model}`): +1 on entry, -1 on exit.
    public func inFlight<T>(model: String, _ body: () async throws -> T) async rethrows -> T {
        let gauge = Meter(label: "fovea_inflight_requests", dimensions: [("model", model)], factory: factory)
        gauge.increment()
        defer { gauge.decrement() }
        return try await body()
    }

    /// Records one batcher run: its size, its compute time and each input's queue time.
    public func recordBatch<Input, Output>(model: String, _ report: DynamicBatcher<Input, Output>.BatchReport) {
        Recorder(label: "fovea_batch_size", dimensions: [("model", model)], aggregate: true, factory: factory).record(report.size)
        CoreMetrics.Timer(label: "fovea_compute_duration_seconds", dimensions: [("model", model)], factory: factory)
            .recordNanoseconds(Self.nanoseconds(report.computeTime))
        let queue = CoreMetrics.Timer(label: "fovea_queue_duration_seconds", dimensions: [("model", model)], factory: factory)
        for time in report.queueTimes { queue.recordNanoseconds(Self.nanoseconds(time)) }
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> String {
        registry.emitToString()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}

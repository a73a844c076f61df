import XCTest
@_spi(Internals) @testable import Fovea

/// Requests performed from many tasks at once give exactly the sequential
/// results. Also run under ThreadSanitizer by scripts/ci/test.sh.
final class ClassificationConcurrencyTests: XCTestCase {
    func test500RequestsFrom16TasksMatchSequentialResults() async throws {
        let model = try TestImages.tinyModel(labels: ["a", "b", "c", "d", "e", "f"])
        let centre = try ClassificationRequest(model: model)
        centre.maximumObservations = 3
        let fit = try ClassificationRequest(model: model)
        fit.imageCropAndScaleOption = .scaleFit
        let requests = [centre, fit]
        // 25 different images (sizes, orientations), one handler each, shared by the tasks.
        let handlers = try (0..<25).map { i in
            ImageRequestHandler(image: try TestImages.gradient(width: 20 + i * 3, height: 17 + (i * 7) % 23, seed: i),
                                orientation: ImageOrientation.allCases[i % 8])
        }
        let jobs = (0..<500).map { (handler: $0 % handlers.count, request: $0 % requests.count) }
        let sequential = try jobs.map { try handlers[$0.handler].performAndWait(requests[$0.request]) }
        XCTAssertGreaterThan(Set(sequential.map { $0.first?.identifier ?? "" }).count, 1, "the images should not all look alike")

        let concurrent = try await withThrowingTaskGroup(of: [(Int, [ClassificationObservation])].self) { group in
            for task in 0..<16 {
                group.addTask {
                    var mine: [(Int, [ClassificationObservation])] = []
                    for index in stride(from: task, to: jobs.count, by: 16) {
                        let job = jobs[index]
                        mine.append((index, try await handlers[job.handler].perform(requests[job.request])))
                    }
                    return mine
                }
            }
            var all = [[ClassificationObservation]](repeating: [], count: jobs.count)
            for try await part in group {
                for (index, observations) in part { all[index] = observations }
            }
            return all
        }
        XCTAssertEqual(concurrent, sequential)
    }

    func testCompletionHandlersRunForEveryConcurrentPerform() async throws {
        let counter = Counter()
        let request = try ClassificationRequest(model: try TestImages.tinyModel()) { _, result in
            if case .success(let observations) = result, observations.count == 6 { counter.increment() }
        }
        let handler = ImageRequestHandler(image: try TestImages.gradient(width: 30, height: 24))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 { group.addTask { _ = try await handler.perform(request) } }
            try await group.waitForAll()
        }
        XCTAssertEqual(counter.value, 32)
    }
}

/// A thread-safe counter.
private final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

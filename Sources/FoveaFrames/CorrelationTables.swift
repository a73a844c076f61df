import Foundation

/// The Hann window and Gaussian weights of each grid size, computed once per
/// process: a correlator made for a single pair (``PhaseCorrelator`` in an
/// `ImageRequestHandler`) then costs its FFT plans only.
enum CorrelationTables {
    private struct Size: Hashable { let width: Int, height: Int }
    private nonisolated(unsafe) static var tables: [Size: (window: [Float], weights: [Float], selfPeak: Float)] = [:]
    // Guards `tables` (hence nonisolated(unsafe)).
    private static let lock = NSLock()
    /// Sizes kept at most: frames of a few sizes are the rule; a size change clears them.
    private static let capacity = 8

    static func shared(width: Int, height: Int) -> (window: [Float], weights: [Float], selfPeak: Float) {
        let size = Size(width: width, height: height)
        if let known = lock.withLock({ tables[size] }) { return known }
        let window = PhaseCorrelator.hannWindow(width: width, height: height)
        let (weights, selfPeak) = PhaseCorrelator.gaussianWeights(width: width, height: height, sigma: 1)
        lock.withLock {
            if tables.count >= capacity { tables.removeAll() }
            tables[size] = (window, weights, selfPeak)
        }
        return (window, weights, selfPeak)
    }
}

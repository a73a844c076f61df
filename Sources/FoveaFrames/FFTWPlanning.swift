import CFFTW
import Foundation

/// FFTW's planner is not thread-safe (executing plans is): every plan is made
/// and destroyed while holding this lock.
enum FFTWPlanning {
    static let lock = NSLock()

    /// `FFTW_ESTIMATE`: plan from heuristics in microseconds, no trial runs.
    static let estimate = UInt32(1 << 6)
}

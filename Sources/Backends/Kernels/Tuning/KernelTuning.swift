import Foundation

/// Where a plan's measured choices (today: each 3×3 stride-1 convolution's algorithm,
/// GEMM or Winograd F(2)/F(4)/F(6)) come from.
///
/// - ``remembered`` (the default): what `fovea tune` or an earlier ``measure`` stored for
///   this CPU and thread count (``TuningStore``), else the fallback table, measured on an
///   AMD EPYC Zen 4 (``fallbackCPU``).
/// - ``measure``: the same, but shapes the record lacks are measured while the plan is
///   built, within ``budget`` in all, and stored; what the budget leaves over takes the fallback.
/// - ``remeasure``: measures every shape again (within ``budget``) and stores it: `fovea tune`.
/// - ``fallback``: the fallback table only, whatever is stored (plans alike on every machine).
public struct KernelTuning: Sendable, Equatable, CustomStringConvertible {
    /// How stored and measured choices are used.
    public enum Mode: String, Sendable, CaseIterable {
        /// Stored choices, else the fallback table.
        case remembered
        /// Stored choices; missing ones measured (within the budget) and stored.
        case measure
        /// Every shape measured again (within the budget) and stored.
        case remeasure
        /// The fallback table only.
        case fallback
    }

    /// How stored and measured choices are used.
    public var mode: Mode
    /// The most time measuring may take while one model's plans are built
    /// (``measure`` and ``remeasure``; a shape under way is finished).
    public var budget: Duration

    /// Creates a tuning setting.
    public init(mode: Mode, budget: Duration = KernelTuning.defaultBudget) {
        self.mode = mode
        self.budget = budget
    }

    /// 30 seconds: ResNet-50's four shapes take about 4 s per thread count on 2 cores.
    public static let defaultBudget: Duration = .seconds(30)
    /// Stored choices, else the fallback table.
    public static let remembered = KernelTuning(mode: .remembered)
    /// Stored choices; missing ones measured within ``defaultBudget`` and stored.
    public static let measure = KernelTuning(mode: .measure)
    /// Stored choices; missing ones measured within `budget` and stored.
    public static func measure(budget: Duration) -> KernelTuning { KernelTuning(mode: .measure, budget: budget) }
    /// Every shape measured again and stored (what `fovea tune` does), within `budget`.
    public static func remeasure(budget: Duration = .seconds(3600)) -> KernelTuning { KernelTuning(mode: .remeasure, budget: budget) }
    /// The fallback table only.
    public static let fallback = KernelTuning(mode: .fallback)

    /// The CPU the fallback table was measured on.
    public static var fallbackCPU: String { ConvolutionAlgorithmTable.measuredOn }

    public var description: String {
        switch mode {
        case .remembered, .fallback: return mode.rawValue
        case .measure, .remeasure: return "\(mode.rawValue) (budget \(budget))"
        }
    }
}

/// Where one step's algorithm came from, for plans (`inspect --plan`).
enum ChoiceSource: Equatable {
    /// Measured on this CPU at this thread count (now or earlier).
    case measuredHere(threads: Int)
    /// The fallback table (measured on another CPU, which it names).
    case fallback
    /// A ``WinogradPolicy`` other than `.measured` (`--winograd`).
    case forced
    /// A rule that measures nothing (depthwise, few input channels, not 3×3 stride 1).
    case rule

    /// What a step's algorithm ends with.
    var suffix: String {
        switch self {
        case .measuredHere(let threads): return " (measured here, \(threads) thread\(threads == 1 ? "" : "s"))"
        case .fallback: return " (fallback: table measured on \(ConvolutionAlgorithmTable.measuredOn))"
        case .forced: return " (forced)"
        case .rule: return ""
        }
    }
}

/// One model's tuning while its plans are built: looks choices up, measures missing
/// ones within the budget (``KernelTuning/measure``), stores what it measured.
final class TuningSession: @unchecked Sendable {
    let tuning: KernelTuning
    let threads: Int
    let store: TuningStore?
    private let lock = NSLock()
    private var spent: Duration = .zero
    private var remeasured: Set<TuningKey> = []
    private var budgetWarned = false

    /// `store` nil: the ``TuningStore/current`` store, looked up when first needed.
    init(tuning: KernelTuning, threads: Int, store: TuningStore? = nil) {
        self.tuning = tuning
        self.threads = max(1, threads)
        self.store = store
    }

    /// The algorithm for a 3×3 stride-1 convolution under the measured policy, and where it came from.
    func choose(_ shape: ConvolutionShape) -> (ConvolutionAlgorithm, ChoiceSource) {
        let key = TuningKey(shape, threads: threads)
        let fallback = key.fallbackChoice
        guard tuning.mode != .fallback else { return (fallback, .fallback) }
        let store = self.store ?? TuningStore.current
        lock.lock()
        defer { lock.unlock() }
        let stored = store.record.entries[key]
        let fresh = tuning.mode != .remeasure || remeasured.contains(key)
        if let stored, fresh, ConvolutionTuner.candidates(shape).contains(stored.choice) {
            return (stored.choice, .measuredHere(threads: threads))
        }
        guard tuning.mode == .measure || tuning.mode == .remeasure else { return (fallback, .fallback) }
        guard spent < tuning.budget else {
            if !budgetWarned {
                budgetWarned = true
                TuningStore.printWarning("the tuning budget of \(tuning.budget) is spent; shapes not yet measured take the fallback table")
            }
            return (fallback, .fallback)
        }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let times = try ConvolutionTuner.measure(key)
            spent += clock.now - start
            let entry = TuningEntry(key: key, choice: ConvolutionTuner.fastest(times), milliseconds: times,
                                    date: ISO8601DateFormatter().string(from: Date()))
            remeasured.insert(key)
            do {
                try store.save([entry])
            } catch {
                TuningStore.printWarning("the tuning record was not saved: \(error)")
            }
            return (entry.choice, .measuredHere(threads: threads))
        } catch {
            spent += clock.now - start
            TuningStore.printWarning("measuring \(key) failed (\(error)); it takes the fallback table")
            return (fallback, .fallback)
        }
    }
}

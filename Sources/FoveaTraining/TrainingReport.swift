import Foundation

/// What a training run did: the numbers `fovea train` prints at the end.
public struct TrainingReport: Sendable {
    /// Training images per class (before augmentation), in class order.
    public var trainingImagesPerClass: [Int] = []
    /// Validation images per class, in class order.
    public var validationImagesPerClass: [Int] = []
    /// Feature vectors the network computed, and vectors read from the cache.
    public var featuresComputed = 0
    /// Feature vectors read from the feature cache instead.
    public var featuresCached = 0
    /// Images that could not be read: path and message. They were skipped.
    public var unreadableImages: [(path: String, message: String)] = []
    /// Files that are not images, ignored.
    public var ignoredFiles: [String] = []
    /// L-BFGS iterations the fit ran.
    public var iterations = 0
    /// Whether L-BFGS converged before the iteration limit, and how it ended.
    public var converged = false
    /// Why L-BFGS stopped, such as `converged` or `maximum iterations` (``SoftmaxRegressionFit/status``).
    public var stopReason = ""
    /// The objective (mean cross-entropy plus the L2 term) at the end of the fit.
    public var finalLoss = 0.0
    /// Seconds spent extracting features and fitting the head.
    public var extractionSeconds = 0.0
    /// Seconds spent fitting the head.
    public var fitSeconds = 0.0
}

import Foundation
@_spi(Internals) import Fovea

/// How ``ImageClassifier`` trains (Create ML's `MLImageClassifier.ModelParameters`).
public struct ImageClassifierParameters: Sendable {
    /// Where validation examples come from.
    public enum Validation: Sendable, Equatable {
        /// Create ML's rule: none under 50 images, 10% of each class under 200, 5% above.
        case automatic
        /// No validation.
        case none
        /// Another labelled directory (its class names must be training classes).
        case directory(String)
    }

    /// The pretrained classifier (`.onnx` or `.mlmodel`) whose features are used.
    public var baseModel: String
    /// The value features are read from; `nil` picks ``FeatureLayer/defaultLayer(in:)``.
    public var featureLayer: String?
    /// The most L-BFGS iterations (Create ML's default: 25).
    public var maxIterations: Int = 25
    /// The L2 strength λ of the mean cross-entropy + λ/2·‖W‖² objective.
    public var l2: Double = 0.01
    /// Which images measure the fit: a split of the training images (the default), a folder, or none.
    public var validation: Validation = .automatic
    /// Augmented copies of each training image, one per option (off by default).
    public var augmentation: ImageAugmentation = []
    /// Seeds the validation split and the augmentation.
    public var seed: UInt64 = 0
    /// Threads for feature extraction; `nil` uses every core.
    public var threads: Int?
    /// The arithmetic of feature extraction (`ModelConfiguration.precision`):
    /// `.f32` by default; `.bf16` caches its features apart from float32 ones.
    public var precision: Precision = .f32
    /// A class with fewer training images is an error.
    public var minimumImagesPerClass: Int = 2
    /// The feature cache; `nil` turns caching off.
    public var cache: FeatureCache? = FeatureCache()

    /// Parameters for training on features of the classifier at `baseModel`, every other setting at its default.
    public init(baseModel: String) {
        self.baseModel = baseModel
    }
}

/// How ScatterND combines an update with the element it lands on (ONNX's
/// `reduction` attribute: `add` and `mul` from opset 16, `max` and `min` from 18).
public enum ScatterReduction: String, Sendable, Equatable, CaseIterable {
    /// The update replaces the element.
    case none
    /// The element plus the update.
    case add
    /// The element times the update.
    case mul
    /// The larger of the element and the update.
    case max
    /// The smaller of the element and the update.
    case min
}

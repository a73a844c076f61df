/// A window onto tensor elements that the executor owns: a base pointer, a
/// shape, a data type and a batch stride.
///
/// Within one index of axis 0 (one image) the elements are contiguous and
/// row-major; from one image to the next there are ``batchStride`` elements.
/// A producer whose output is a channel slice of a larger NCHW tensor (an
/// elided Concat) is handed a view whose batch stride is the larger tensor's
/// image size. Inputs handed to a step are always contiguous; only outputs of
/// steps that declare ``PreparedStep/writesStridedOutput`` may be strided.
///
/// A view does not own its memory: it is valid only during the step's `run`.
public struct TensorView: @unchecked Sendable {
    /// The first element of image 0.
    public var base: UnsafeMutableRawPointer
    /// The element type.
    public let dataType: DataType
    /// The extent of each axis, as planned.
    public let shape: [Int]
    /// Elements from one index of axis 0 to the next; equals
    /// ``imageCount`` when the view is contiguous.
    public let batchStride: Int

    /// Creates a view of the elements at `base`; `batchStride` defaults to one image's elements (a contiguous view).
    public init(base: UnsafeMutableRawPointer, dataType: DataType, shape: [Int], batchStride: Int? = nil) {
        self.base = base
        self.dataType = dataType
        self.shape = shape
        self.batchStride = batchStride ?? (shape.isEmpty ? 1 : shape.dropFirst().reduce(1, *))
    }

    /// Images: the extent of axis 0 (1 for a scalar).
    public var batch: Int { shape.first ?? 1 }
    /// Elements of one image: the product of every axis but the first.
    public var imageCount: Int { shape.isEmpty ? 1 : shape.dropFirst().reduce(1, *) }
    /// All elements.
    public var count: Int { shape.elementCount }
    /// Whether the elements are one dense run (`batchStride == imageCount`, or one image).
    public var isContiguous: Bool { batchStride == imageCount || batch <= 1 }
    /// The view's data type and shape.
    public var type: TensorType { TensorType(dataType, shape) }

    /// The elements as floats (the caller has checked ``dataType``).
    @inline(__always)
    public var floats: UnsafeMutablePointer<Float> { base.assumingMemoryBound(to: Float.self) }

    /// The first float element of image `n`.
    @inline(__always)
    public func image(_ n: Int) -> UnsafeMutablePointer<Float> { floats + n * batchStride }

    /// An owned tensor with a copy of the elements (gathering strided images).
    public func copyToTensor() -> Tensor {
        switch dataType {
        case .float32: return Tensor(uncheckedShape: shape, storage: .float32(gather(Float.self)))
        case .int64: return Tensor(uncheckedShape: shape, storage: .int64(gather(Int64.self)))
        case .bool: return Tensor(uncheckedShape: shape, storage: .bool(gather(Bool.self)))
        case .uint8: return Tensor(uncheckedShape: shape, storage: .uint8(gather(UInt8.self)))
        case .int8: return Tensor(uncheckedShape: shape, storage: .int8(gather(Int8.self)))
        case .int32: return Tensor(uncheckedShape: shape, storage: .int32(gather(Int32.self)))
        }
    }

    /// The elements as a contiguous array of `T` (the caller has checked ``dataType``).
    private func gather<T>(_: T.Type) -> [T] {
        let images = shape.isEmpty ? 1 : batch, per = imageCount
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let out = buffer.baseAddress {
                let source = base.assumingMemoryBound(to: T.self)
                for n in 0..<images { (out + n * per).initialize(from: source + n * batchStride, count: per) }
            }
            initialized = count
        }
    }

    /// Writes `tensor`'s elements (of this view's type) into the view, scattering images by ``batchStride``.
    public func copy(from tensor: Tensor) {
        let images = shape.isEmpty ? 1 : batch, per = imageCount
        guard count > 0 else { return }
        func scatter<T>(_ values: [T]) {
            values.withUnsafeBufferPointer { source in
                guard let source = source.baseAddress else { return }
                let out = base.assumingMemoryBound(to: T.self)
                for n in 0..<images { (out + n * batchStride).update(from: source + n * per, count: per) }
            }
        }
        switch tensor.storage {
        case .float32(let v): scatter(v)
        case .int64(let v): scatter(v)
        case .bool(let v): scatter(v)
        case .uint8(let v): scatter(v)
        case .int8(let v): scatter(v)
        case .int32(let v): scatter(v)
        }
    }
}

extension Tensor {
    /// Calls `body` with a pointer to the elements (valid only inside `body`).
    /// An empty tensor gets a valid dummy pointer.
    public func withUnsafeRawPointer<Result>(_ body: (UnsafeRawPointer) throws -> Result) throws -> Result {
        func with<T>(_ values: [T]) throws -> Result {
            try values.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { return try body(base) }
                var dummy: Int64 = 0
                return try withUnsafeBytes(of: &dummy) { try body($0.baseAddress!) }
            }
        }
        switch storage {
        case .float32(let v): return try with(v)
        case .int64(let v): return try with(v)
        case .bool(let v): return try with(v)
        case .uint8(let v): return try with(v)
        case .int8(let v): return try with(v)
        case .int32(let v): return try with(v)
        }
    }
}

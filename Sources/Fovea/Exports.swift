// What `import Fovea` brings besides the declarations of this module: the
// user-facing types that live in the modules Fovea is built from, one by one.
// Everything else in those modules (the graph IR `Graph`, passes, the memory
// planner, `ExecutionPlan`, the reference backend, image encoders, ...) is
// reachable only with an explicit `import FoveaCore` / `import FoveaImage`,
// as the CLI, the tests and the training module do. Members that return such
// a type (`Model.graph`, `Model.plan()`) are `@_spi(Internals)`: the package's
// own tools reach them with `@_spi(Internals) import Fovea`, users do not.
// scripts/ci/api-boundary.sh checks both sides of this line.

// Tensors, errors and the configuration types a `ModelConfiguration` and a
// `ModelDescription` are made of.
@_exported import struct FoveaCore.Tensor
@_exported import enum FoveaCore.DataType
@_exported import struct FoveaCore.TensorType
@_exported import enum FoveaCore.TensorDimension
@_exported import struct FoveaCore.ValueInfo
@_exported import struct FoveaCore.ModelMetadata
@_exported import struct FoveaCore.FoveaError
@_exported import struct FoveaCore.MemoryLimit
@_exported import struct FoveaCore.OptimizationOptions
@_exported import enum FoveaCore.Precision

// For plugin authors, the `Backend` protocol and the types its requirements
// mention come from the separate `FoveaPlugins` product (`import FoveaPlugins`),
// so that generic names such as `Node`, `Op` and `RunContext` do not enter every
// user's namespace with `import Fovea`.

// Images: decoded pictures, raw pixel buffers, orientation, decoding limits, colour matching,
// and how pixels become a model's input.
@_exported import struct FoveaImage.RGBImage
@_exported import struct FoveaImage.PixelBuffer
@_exported import enum FoveaImage.PixelFormat
@_exported import enum FoveaImage.ImageOrientation
@_exported import enum FoveaImage.ImageDecoder
@_exported import struct FoveaImage.ImageDecodingLimits
@_exported import enum FoveaImage.ColorMatching
@_exported import struct FoveaImage.PixelNormalization
@_exported import enum FoveaImage.ChannelOrder
@_exported import struct FoveaImage.CropAndScaleGeometry

// The kernels backend's algorithm choices (WinogradPolicy, ConvolutionAlgorithm).
@_exported import enum FoveaKernelsBackend.WinogradPolicy
@_exported import enum FoveaKernelsBackend.ConvolutionAlgorithm
@_exported import struct FoveaKernelsBackend.KernelTuning
// What the ONNX loader reads, and what a model uses that it does not (`fovea inspect`).
@_exported import enum FoveaONNX.ONNXOperatorSupport
@_exported import struct FoveaONNX.UnsupportedONNXOperator

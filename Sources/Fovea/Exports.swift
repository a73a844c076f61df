// `import Fovea` gives users the graph, tensor and image types too.
@_exported import FoveaCore
@_exported import FoveaImage
// The kernels backend's algorithm choices (WinogradPolicy, ConvolutionAlgorithm).
@_exported import enum FoveaKernels.WinogradPolicy
@_exported import enum FoveaKernels.ConvolutionAlgorithm
// What the ONNX loader reads, and what a model uses that it does not (`fovea inspect`).
@_exported import enum FoveaONNX.ONNXOperatorSupport
@_exported import struct FoveaONNX.UnsupportedONNXOperator
// Video frames from a YUV4MPEG2 stream (`ffmpeg -f yuv4mpegpipe`), for `fovea stream` and users alike.
@_exported import class FoveaFrames.Y4MReader

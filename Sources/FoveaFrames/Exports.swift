// The `FoveaFrames` product: Vision's frame requests (barcodes, image registration,
// sequences, a frame classifier) and YUV4MPEG2 video, over FFTW and zbar. Kept out of
// `import Fovea` so that classifying photos needs neither library. `import FoveaFrames`
// brings `Fovea` too: the requests are performed by Fovea's `ImageRequestHandler`.
@_exported import Fovea

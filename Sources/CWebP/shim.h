// libwebp's decoder and its demuxer (animated and extended WebP: frames, ICCP, EXIF).
#include <webp/decode.h>
#include <webp/demux.h>

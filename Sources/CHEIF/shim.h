// libheif: HEIC/HEIF (HEVC through libde265) and AVIF (AV1 through dav1d or aom).
#include <libheif/heif.h>

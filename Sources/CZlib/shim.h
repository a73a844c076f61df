// zlib: inflates a PNG's compressed iCCP profile (libpng's simplified API does not expose it).
#include <zlib.h>

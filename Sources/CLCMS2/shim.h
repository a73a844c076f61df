// Little CMS 2: colour matching of embedded profiles to sRGB.
#include <lcms2.h>

// lcms2's pixel formats are macros built from other macros, which Swift does
// not import; these return them.
static inline cmsUInt32Number fovea_lcms_type_rgb_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number fovea_lcms_type_rgb_16(void) { return TYPE_RGB_16; }

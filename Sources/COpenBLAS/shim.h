// OpenBLAS's CBLAS interface and its thread-count call (Debian: libopenblas-dev).
#include <cblas.h>

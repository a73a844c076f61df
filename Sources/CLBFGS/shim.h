// libLBFGS, Naoaki Okazaki's C port of L-BFGS (Debian: liblbfgs-dev).
#include <lbfgs.h>

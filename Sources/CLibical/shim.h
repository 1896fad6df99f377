#ifndef TMINUS_CLIBICAL_SHIM_H
#define TMINUS_CLIBICAL_SHIM_H
// libical 3.0.16 as Debian's libical-dev installs it. Only the core library is
// used: no icalss (storage) and no icalvcal.
#include <libical/ical.h>
#include <stdlib.h>
#endif

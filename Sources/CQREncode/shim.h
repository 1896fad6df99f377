#ifndef TMINUS_CQRENCODE_SHIM_H
#define TMINUS_CQRENCODE_SHIM_H
// libqrencode 4.1 as Debian's libqrencode-dev installs it: QR symbols for the
// web app's subscribe links. Only QRcode_encodeString and QRcode_free are used.
#include <qrencode.h>
#include <stdlib.h>
#endif

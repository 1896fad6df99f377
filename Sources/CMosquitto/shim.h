#ifndef TMINUS_CMOSQUITTO_SHIM_H
#define TMINUS_CMOSQUITTO_SHIM_H
// libmosquitto 2.0 as Debian's libmosquitto-dev installs it: the MQTT client
// that keeps Home Assistant's countdown sensors on a broker. Used through its
// threaded loop (mosquitto_loop_start), whose calls are thread-safe.
#include <mosquitto.h>
#endif

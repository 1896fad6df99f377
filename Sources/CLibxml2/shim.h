#ifndef TMINUS_CLIBXML2_SHIM_H
#define TMINUS_CLIBXML2_SHIM_H
// libxml2 as Debian's libxml2-dev installs it: only the pull reader (xmlTextReader)
// is used, to read request bodies and uploaded SVGs (StrictXML).
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers then clash with the ICU copy
// inside Foundation when both modules are imported. Only the encoding handler's
// struct uses ICU's types, and tminus never touches it (input is UTF-8 only).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#endif

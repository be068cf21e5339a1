// libsrt (the SRT Alliance's library, 1.4 or later): sockets, options, statistics, and the access-control
// rejection codes of the stream id syntax.
#ifndef STREAMKIT_CSRT_SHIM_H
#define STREAMKIT_CSRT_SHIM_H
#include <srt/srt.h>
#include <srt/access_control.h>

static inline int streamkit_srt_invalid_socket(void) { return SRT_INVALID_SOCK; }
static inline int streamkit_srt_error(void) { return SRT_ERROR; }
#endif

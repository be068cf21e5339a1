// The parts of libavcodec/libavutil/libswscale the FFmpeg engine uses, plus inline wrappers for the
// macros Swift cannot import (AVERROR(), AVERROR_EOF, AV_NOPTS_VALUE …).
#ifndef STREAMKIT_CFFMPEG_SHIM_H
#define STREAMKIT_CFFMPEG_SHIM_H
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/channel_layout.h>
#include <libavutil/hwcontext.h>
#include <libswscale/swscale.h>
#include <errno.h>

static inline int streamkit_averror(int code) { return AVERROR(code); }
static inline int streamkit_averror_eof(void) { return AVERROR_EOF; }
static inline int streamkit_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int streamkit_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t streamkit_nopts_value(void) { return AV_NOPTS_VALUE; }
#endif

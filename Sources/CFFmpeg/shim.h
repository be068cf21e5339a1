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

// Flag and capability bits written as shifts (Swift does not import every macro expression).
static inline int streamkit_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int streamkit_codec_flag_unaligned(void) { return AV_CODEC_FLAG_UNALIGNED; }
static inline int streamkit_codec_cap_small_last_frame(void) { return AV_CODEC_CAP_SMALL_LAST_FRAME; }
static inline int streamkit_pkt_flag_key(void) { return AV_PKT_FLAG_KEY; }
static inline int streamkit_thread_slice(void) { return FF_THREAD_SLICE; }
static inline int streamkit_thread_frame_and_slice(void) { return FF_THREAD_FRAME | FF_THREAD_SLICE; }
static inline int streamkit_input_buffer_padding_size(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
static inline int streamkit_profile_h264_constrained_baseline(void) { return FF_PROFILE_H264_CONSTRAINED_BASELINE; }
static inline int streamkit_profile_h264_main(void) { return FF_PROFILE_H264_MAIN; }
static inline int streamkit_profile_h264_high(void) { return FF_PROFILE_H264_HIGH; }
static inline int streamkit_profile_hevc_main(void) { return FF_PROFILE_HEVC_MAIN; }

// AVFrame.data / linesize are fixed arrays that arrive in Swift as 8-tuples: index them here.
static inline uint8_t *streamkit_frame_data(const AVFrame *frame, int plane) {
    return (plane >= 0 && plane < AV_NUM_DATA_POINTERS) ? frame->data[plane] : NULL;
}
static inline int streamkit_frame_linesize(const AVFrame *frame, int plane) {
    return (plane >= 0 && plane < AV_NUM_DATA_POINTERS) ? frame->linesize[plane] : 0;
}
#endif

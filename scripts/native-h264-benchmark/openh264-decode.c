/*
 * openh264-decode: the openh264 decoder peer of scripts/benchmark-native-h264-decoder.sh. Reads an Annex B
 * H.264 stream, decodes it with libopenh264 (Cisco's decoder, from libopenh264-dev) on one thread, NAL unit by
 * NAL unit (DecodeFrameNoDelay, the usage codec_api.h recommends), and optionally writes the pictures as
 * planar I420 so that its output can be checked against ffmpeg's.
 *
 *   openh264-decode IN.264 [OUT.yuv]
 *
 * Prints one line: "frames F seconds S", S the process CPU time spent decoding (reading the file and writing
 * OUT.yuv not included).
 * Build: gcc -O2 -o openh264-decode openh264-decode.c -lopenh264
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wels/codec_api.h>

static void die(const char *message, const char *detail) {
    fprintf(stderr, "openh264-decode: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static double cpu_seconds(void) {
    struct timespec spec;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec);
    return (double)spec.tv_sec + (double)spec.tv_nsec / 1e9;
}

/* Writes one decoded picture (three planes with the decoder's strides) as I420. */
static void write_picture(FILE *out, unsigned char *planes[3], const SBufferInfo *info) {
    const SSysMEMBuffer *buffer = &info->UsrData.sSystemBuffer;
    for (int plane = 0; plane < 3; plane++) {
        int width = plane == 0 ? buffer->iWidth : buffer->iWidth / 2;
        int height = plane == 0 ? buffer->iHeight : buffer->iHeight / 2;
        int stride = buffer->iStride[plane == 0 ? 0 : 1];
        for (int row = 0; row < height; row++) {
            if (fwrite(planes[plane] + (size_t)row * stride, 1, (size_t)width, out) != (size_t)width) die("write failed", NULL);
        }
    }
}

/* The offset of the next start code (00 00 01) at or after `from`, or `size`. */
static size_t next_start(const unsigned char *data, size_t size, size_t from) {
    for (size_t i = from; i + 3 <= size; i++) {
        if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) return i;
    }
    return size;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) die("usage: openh264-decode IN.264 [OUT.yuv]", NULL);
    FILE *in = fopen(argv[1], "rb");
    if (!in) die("cannot open", argv[1]);
    fseek(in, 0, SEEK_END);
    long length = ftell(in);
    fseek(in, 0, SEEK_SET);
    if (length <= 0) die("empty input", argv[1]);
    unsigned char *data = malloc((size_t)length);
    if (!data || fread(data, 1, (size_t)length, in) != (size_t)length) die("cannot read", argv[1]);
    fclose(in);
    FILE *out = argc == 3 ? fopen(argv[2], "wb") : NULL;
    if (argc == 3 && !out) die("cannot create", argv[2]);

    ISVCDecoder *decoder = NULL;
    if (WelsCreateDecoder(&decoder) != 0 || !decoder) die("WelsCreateDecoder failed", NULL);
    SDecodingParam parameters;
    memset(&parameters, 0, sizeof parameters);
    parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC;
    parameters.eEcActiveIdc = ERROR_CON_DISABLE;
    if ((*decoder)->Initialize(decoder, &parameters) != 0) die("Initialize failed", NULL);
    int threads = 0;
    (*decoder)->SetOption(decoder, DECODER_OPTION_NUM_OF_THREADS, &threads);

    double spent = 0;
    long frames = 0;
    size_t size = (size_t)length, start = next_start(data, size, 0);
    while (start < size) {
        size_t end = next_start(data, size, start + 3);
        /* A 4-byte start code's leading zero belongs to the next unit, as openh264's own console does it. */
        size_t unit_end = end < size && end > start && data[end - 1] == 0 ? end - 1 : end;
        unsigned char *planes[3] = {NULL, NULL, NULL};
        SBufferInfo info;
        memset(&info, 0, sizeof info);
        double before = cpu_seconds();
        (*decoder)->DecodeFrameNoDelay(decoder, data + start, (int)(unit_end - start), planes, &info);
        spent += cpu_seconds() - before;
        if (info.iBufferStatus == 1) {
            frames++;
            if (out) write_picture(out, planes, &info);
        }
        start = end;
    }
    int end_of_stream = 1;
    (*decoder)->SetOption(decoder, DECODER_OPTION_END_OF_STREAM, &end_of_stream);
    for (;;) {
        unsigned char *planes[3] = {NULL, NULL, NULL};
        SBufferInfo info;
        memset(&info, 0, sizeof info);
        double before = cpu_seconds();
        (*decoder)->FlushFrame(decoder, planes, &info);
        spent += cpu_seconds() - before;
        if (info.iBufferStatus != 1) break;
        frames++;
        if (out) write_picture(out, planes, &info);
    }
    (*decoder)->Uninitialize(decoder);
    WelsDestroyDecoder(decoder);
    if (out) fclose(out);
    free(data);
    printf("frames %ld seconds %.6f\n", frames, spent);
    return 0;
}

/*
 * openh264-encode: the openh264 peer of scripts/benchmark-native-h264.sh. Reads a 4:2:0 Y4M file, encodes
 * it with libopenh264 (Cisco's encoder, from libopenh264-dev) on one thread, Constrained Baseline (CAVLC),
 * and writes an Annex B stream.
 *
 *   openh264-encode IN.y4m OUT.264 (--qp N | --bitrate BPS) [--keyint N] [--frames N] [--fps N]
 *
 * --qp N       rate control off (RC_OFF_MODE): every picture at QP N, adaptive quantisation off.
 * --bitrate B  RC_BITRATE_MODE at B bit/s, frame skipping off (every input frame gives a picture).
 * --keyint N   an IDR picture every N frames (default 30); scene-change detection off, so the GOP is
 *              the same as the other encoders'.
 *
 * Prints one line: "frames F bytes B seconds S", S the process CPU time spent in EncodeFrame.
 * Build: gcc -O2 -o openh264-encode openh264-encode.c -lopenh264
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wels/codec_api.h>

static void die(const char *message, const char *detail) {
    fprintf(stderr, "openh264-encode: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static double cpu_seconds(void) {
    struct timespec spec;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec);
    return (double)spec.tv_sec + (double)spec.tv_nsec / 1e9;
}

/* Reads the Y4M stream header: width, height and frame rate; refuses anything but 4:2:0 8-bit. */
static void read_header(FILE *in, int *width, int *height, int *fps) {
    char line[4096];
    if (!fgets(line, sizeof line, in) || strncmp(line, "YUV4MPEG2 ", 10) != 0) die("not a Y4M file", NULL);
    *width = 0; *height = 0; *fps = 30;
    for (char *token = strtok(line + 10, " \n"); token; token = strtok(NULL, " \n")) {
        if (token[0] == 'W') *width = atoi(token + 1);
        else if (token[0] == 'H') *height = atoi(token + 1);
        else if (token[0] == 'F') {
            int numerator = 0, denominator = 1;
            if (sscanf(token + 1, "%d:%d", &numerator, &denominator) == 2 && denominator > 0 && numerator > 0)
                *fps = (numerator + denominator / 2) / denominator;
        } else if (token[0] == 'C' && strncmp(token + 1, "420", 3) != 0) die("only 4:2:0 8-bit Y4M", token);
    }
    if (*width <= 0 || *height <= 0 || *width > 8192 || *height > 8192 || (*width & 1) || (*height & 1))
        die("bad or odd frame size in the Y4M header", NULL);
}

/* Reads one frame (its FRAME line and the three planes); 0 at the end of the file. */
static int read_frame(FILE *in, unsigned char *planes, size_t size) {
    char line[4096];
    if (!fgets(line, sizeof line, in)) return 0;
    if (strncmp(line, "FRAME", 5) != 0) die("missing FRAME marker", NULL);
    if (fread(planes, 1, size, in) != size) die("truncated frame", NULL);
    return 1;
}

static void write_frame(FILE *out, const SFrameBSInfo *info, long long *bytes) {
    for (int layer = 0; layer < info->iLayerNum; ++layer) {
        const SLayerBSInfo *bits = &info->sLayerInfo[layer];
        size_t length = 0;
        for (int nal = 0; nal < bits->iNalCount; ++nal) length += (size_t)bits->pNalLengthInByte[nal];
        if (fwrite(bits->pBsBuf, 1, length, out) != length) die("cannot write the output", NULL);
        *bytes += (long long)length;
    }
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: openh264-encode IN.y4m OUT.264 (--qp N | --bitrate BPS) [--keyint N] [--frames N]\n");
        return 2;
    }
    int qp = -1, bitrate = 0, keyint = 30, frame_limit = 1 << 30;
    for (int index = 3; index + 1 < argc; index += 2) {
        if (!strcmp(argv[index], "--qp")) qp = atoi(argv[index + 1]);
        else if (!strcmp(argv[index], "--bitrate")) bitrate = atoi(argv[index + 1]);
        else if (!strcmp(argv[index], "--keyint")) keyint = atoi(argv[index + 1]);
        else if (!strcmp(argv[index], "--frames")) frame_limit = atoi(argv[index + 1]);
        else die("unknown option", argv[index]);
    }
    if ((qp < 0) == (bitrate <= 0)) die("give exactly one of --qp and --bitrate", NULL);
    if (qp > 51 || keyint < 1 || frame_limit < 1) die("option out of range", NULL);

    FILE *in = fopen(argv[1], "rb");
    if (!in) die("cannot open", argv[1]);
    FILE *out = fopen(argv[2], "wb");
    if (!out) die("cannot create", argv[2]);
    int width, height, fps;
    read_header(in, &width, &height, &fps);

    ISVCEncoder *encoder = NULL;
    if (WelsCreateSVCEncoder(&encoder) != 0 || !encoder) die("WelsCreateSVCEncoder failed", NULL);
    SEncParamExt param;
    memset(&param, 0, sizeof param);
    (*encoder)->GetDefaultParams(encoder, &param);
    param.iUsageType = CAMERA_VIDEO_REAL_TIME;
    param.iPicWidth = width;
    param.iPicHeight = height;
    param.fMaxFrameRate = (float)fps;
    param.iTemporalLayerNum = 1;
    param.iSpatialLayerNum = 1;
    param.uiIntraPeriod = (unsigned int)keyint;
    param.iNumRefFrame = 1;
    param.iEntropyCodingModeFlag = 0;           /* CAVLC: Constrained Baseline */
    param.iMultipleThreadIdc = 1;               /* one thread */
    param.bEnableSceneChangeDetect = false;     /* the same GOP as the other encoders */
    param.bEnableFrameSkip = false;             /* one picture per input frame */
    param.bEnableDenoise = false;
    if (qp >= 0) {
        param.iRCMode = RC_OFF_MODE;
        param.bEnableAdaptiveQuant = false;     /* a fixed QP, like x264 --qp */
        param.iTargetBitrate = 0;
    } else {
        param.iRCMode = RC_BITRATE_MODE;
        param.iTargetBitrate = bitrate;
        param.iMaxBitrate = UNSPECIFIED_BIT_RATE;
    }
    SSpatialLayerConfig *layer = &param.sSpatialLayers[0];
    layer->iVideoWidth = width;
    layer->iVideoHeight = height;
    layer->fFrameRate = (float)fps;
    layer->iSpatialBitrate = param.iTargetBitrate;
    layer->iMaxSpatialBitrate = UNSPECIFIED_BIT_RATE;
    layer->uiProfileIdc = PRO_BASELINE;
    layer->iDLayerQp = qp >= 0 ? qp : 26;
    layer->sSliceArgument.uiSliceMode = SM_SINGLE_SLICE;
    layer->sSliceArgument.uiSliceNum = 1;
    if ((*encoder)->InitializeExt(encoder, &param) != 0) die("InitializeExt refused the parameters", NULL);
    int format = videoFormatI420;
    (*encoder)->SetOption(encoder, ENCODER_OPTION_DATAFORMAT, &format);

    size_t luma = (size_t)width * (size_t)height;
    size_t size = luma + 2 * (luma / 4);
    unsigned char *planes = malloc(size);
    if (!planes) die("out of memory", NULL);
    SSourcePicture picture;
    memset(&picture, 0, sizeof picture);
    picture.iColorFormat = videoFormatI420;
    picture.iPicWidth = width;
    picture.iPicHeight = height;
    picture.iStride[0] = width;
    picture.iStride[1] = picture.iStride[2] = width / 2;
    picture.pData[0] = planes;
    picture.pData[1] = planes + luma;
    picture.pData[2] = planes + luma + luma / 4;

    long long bytes = 0;
    int frames = 0;
    double seconds = 0;
    SFrameBSInfo info;
    while (frames < frame_limit && read_frame(in, planes, size)) {
        memset(&info, 0, sizeof info);
        picture.uiTimeStamp = (long long)frames * 1000 / fps;
        double start = cpu_seconds();
        int status = (*encoder)->EncodeFrame(encoder, &picture, &info);
        seconds += cpu_seconds() - start;
        if (status != cmResultSuccess) die("EncodeFrame failed", NULL);
        if (info.eFrameType == videoFrameTypeSkip) die("openh264 skipped a frame", NULL);
        write_frame(out, &info, &bytes);
        ++frames;
    }
    (*encoder)->Uninitialize(encoder);
    WelsDestroySVCEncoder(encoder);
    free(planes);
    fclose(in);
    if (fclose(out) != 0) die("cannot write the output", NULL);
    printf("frames %d bytes %lld seconds %.6f\n", frames, bytes, seconds);
    return frames > 0 ? 0 : 1;
}

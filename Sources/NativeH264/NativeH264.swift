// NativeH264: the decisions and bitstream writing of the pure-Swift H.264 encoder (x264's encoder/),
// on the pixel kernels of NativeH264Kernels (x264's common/). Constrained Baseline: CAVLC, I pictures
// so far (one IDR per frame), 4:2:0, 8-bit.

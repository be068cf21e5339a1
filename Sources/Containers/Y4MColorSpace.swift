/// The `C` parameter of a YUV4MPEG2 stream header: the chroma layout.
///
/// StreamKit reads and writes the 8-bit 4:2:0 layouts only; they differ in where chroma samples sit
/// relative to luma (siting), not in their bytes. Anything else (`422`, `444`, `mono`, `420p10`, …)
/// is rejected with ``Y4MError/unsupportedColorSpace(_:byteOffset:)``.
public enum Y4MColorSpace: String, Sendable, Hashable, CaseIterable {
    /// `420jpeg`: chroma centred between luma samples (JPEG/MPEG-1 siting) — the default when `C` is absent.
    case yuv420jpeg = "420jpeg"
    /// `420paldv`: PAL DV siting (Cb and Cr on alternate lines).
    case yuv420paldv = "420paldv"
    /// `420mpeg2`: chroma co-sited horizontally with luma (MPEG-2 siting).
    case yuv420mpeg2 = "420mpeg2"
    /// `420`: 4:2:0 with unspecified siting.
    case yuv420 = "420"
}

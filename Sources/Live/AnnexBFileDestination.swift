import Containers

/// A recording of the video into an Annex B elementary stream (`.h264` / `.h265`, ITU-T H.264 / H.265 Annex B), as
/// `ffmpeg -c copy -f h264` writes it: parameter sets before every key frame. Audio is not written here (add an
/// ``ADTSFileDestination`` beside it). `AnnexBFileDestination(path: "camera.h264")`.
public typealias AnnexBFileDestination = ElementaryStreamFileDestination<AnnexBWriter<FileByteSink>>

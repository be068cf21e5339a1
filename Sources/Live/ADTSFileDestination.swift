import Containers

/// A recording of the audio into an ADTS stream (`.aac`, ISO/IEC 13818-7 §6.2.1), as `ffmpeg -c copy -f adts`
/// writes it. Pictures are not written here (add an ``AnnexBFileDestination`` beside it).
/// `ADTSFileDestination(path: "microphone.aac")`.
public typealias ADTSFileDestination = ElementaryStreamFileDestination<ADTSWriter<FileByteSink>>

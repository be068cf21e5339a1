// Module Codecs: the session API (compression, decompression, audio encoding) and the engine registry.
// The engine protocol, configurations and errors live one module down, in CodecInterface, so that the
// engines (FFmpegEngine, later the native one) can implement them and this module can see the engines;
// importing Codecs brings them along, as swift-nio's NIO module brings NIOCore.
@_exported import CodecInterface
@_exported import MediaCore

import Foundation

/// GStreamer's RTSP server (gst-rtsp-server, through Debian's `/usr/bin/python3`): a real server we did
/// not write, serving H.264 (rtph264pay, parameter sets in band) and AAC (rtpmp4gpay) at
/// `rtsp://127.0.0.1:PORT/test`, one shared media for every client.
public struct GStreamerRTSPServer: Sendable {
    /// The Python that has Debian's GStreamer bindings (the `python3` on PATH does not).
    public static let python = "/usr/bin/python3"

    /// Whether the server can run here (or must, in CI).
    public static var isRunnable: Bool {
        ExternalTool.isCI || (FileManager.default.isExecutableFile(atPath: python)
            && (try? ExternalTool.run(python, ["-c", "import gi; gi.require_version('GstRtspServer', '1.0'); from gi.repository import GstRtspServer"]).status) == 0)
    }

    /// The running server.
    public let process: PeerProcess
    /// Its URL.
    public let url: String

    /// Starts the server and waits until it listens.
    /// - Parameters:
    ///   - port: its TCP port.
    ///   - directory: where the script and the logs go.
    ///   - user: with `password`, the Basic credentials it demands (none by default).
    ///   - password: the password.
    ///   - digest: whether it demands Digest (MD5) instead of Basic.
    /// - Throws: if it does not start or never listens.
    public init(port: UInt16, in directory: URL, user: String? = nil, password: String? = nil, digest: Bool = false) async throws {
        let authentication = if let user, let password {
            """
            a = GstRtspServer.RTSPAuth(); t = GstRtspServer.RTSPToken()
            t.set_string("media.factory.role", "user")
            \(Self.credentialLine(user: user, password: password, digest: digest))
            s.set_auth(a)
            p = GstRtspServer.RTSPPermissions(); p.add_role("user"); p.add_permission_for_role("user", "media.factory.access", True)
            p.add_permission_for_role("user", "media.factory.construct", True); f.set_permissions(p)
            """
        } else { "" }
        let script = """
            import gi; gi.require_version("Gst", "1.0"); gi.require_version("GstRtspServer", "1.0")
            from gi.repository import Gst, GstRtspServer, GLib
            Gst.init(None)
            s = GstRtspServer.RTSPServer(); s.set_address("127.0.0.1"); s.set_service("\(port)")
            f = GstRtspServer.RTSPMediaFactory(); f.set_shared(True)
            f.set_launch("( videotestsrc is-live=true pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc tune=zerolatency threads=1 "
                         "key-int-max=30 ! rtph264pay name=pay0 pt=96 config-interval=-1 audiotestsrc is-live=true ! "
                         "audio/x-raw,rate=48000,channels=2 ! avenc_aac ! rtpmp4gpay name=pay1 pt=97 )")
            \(authentication)
            s.get_mount_points().add_factory("/test", f); s.attach(None); GLib.MainLoop().run()
            """
        let path = directory.appendingPathComponent("gst-rtsp-server.py")
        try script.write(to: path, atomically: true, encoding: .utf8)
        process = try PeerProcess(Self.python, [path.path], logsIn: directory)
        url = "rtsp://127.0.0.1:\(port)/test"
        guard await Readiness.waitForTCP(port: port) else {
            await process.stop()
            throw TestFailure("the GStreamer RTSP server did not listen on \(port)\n\(process.logs)")
        }
    }

    /// The Python line that registers the user for Basic or Digest.
    private static func credentialLine(user: String, password: String, digest: Bool) -> String {
        digest
            ? "a.add_digest(\"\(user)\", \"\(password)\", t); from gi.repository import GstRtsp; a.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)"
            : "a.add_basic(GstRtspServer.RTSPAuth.make_basic(\"\(user)\", \"\(password)\"), t)"
    }

    /// Stops the server.
    public func stop() async { await process.stop() }
}

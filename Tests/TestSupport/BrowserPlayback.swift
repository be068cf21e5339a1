import Foundation

/// Plays media in headless Chromium (Debian's `chromium`) and reports what the browser decoded: the
/// oracle that a browser plays our MP4 files (a `<video>` element) and our HLS fMP4 segments (Media
/// Source Extensions, appending the `EXT-X-MAP` init segment and every media segment of the playlist in
/// order, as hls.js does), and a live WebRTC stream through WHEP (RFC 9725: an `RTCPeerConnection` posts its
/// recvonly offer; frames decoded and the picture's size from `getStats`) — and, the other way, the browser as a WHIP
/// publisher (RFC 9725): its fake camera and microphone (`getUserMedia` with `--use-fake-device-for-media-stream`) sent
/// through sendonly transceivers to a WHIP endpoint, with what it encoded and sent from `getStats`.
///
/// The media folder is served by a small loopback HTTP server (`python3`, a port in 24000–24999) that
/// holds one request of the page (an `<img>` of `/hold`) until the page has posted its report, so
/// Chromium's load event — and with it `--dump-dom` and `--screenshot` — waits for playback to end in
/// real time (virtual time does not drive the media pipeline). Every run is bounded by timeouts
/// (`timeout -k`, which signals Chromium's whole process group) and stops the server it starts.
///
/// Where `CI=true`, missing Chromium or Python is a failure (``isRunnable`` returns `true`, then the
/// run throws).
public enum BrowserPlayback {
    /// What the page reports (also written into `document.title` and read back with `--dump-dom`).
    public struct Report: Decodable, Sendable, CustomStringConvertible {
        /// Whether playback reached `ended` without an exception.
        public var done: Bool
        /// Media errors, append failures, exceptions.
        public var errors: [String]
        /// `video.duration` in seconds.
        public var duration: Double?
        /// `video.currentTime` at the end.
        public var currentTime: Double?
        /// `getVideoPlaybackQuality().totalVideoFrames`.
        public var totalVideoFrames: Int?
        /// `getVideoPlaybackQuality().droppedVideoFrames`.
        public var droppedVideoFrames: Int?
        /// `video.videoWidth`.
        public var width: Int?
        /// `video.videoHeight`.
        public var height: Int?
        /// The number of media segments appended (MSE only).
        public var segments: Int?
        /// The buffered ranges `[start, end]` (MSE only), before `endOfStream`.
        public var buffered: [[Double]]?
        /// The codecs string the source buffer was created with (MSE only).
        public var codecs: String?
        /// The ICE connection state at the end (WHEP only).
        public var iceState: String?
        /// The audio RTP packets received (WHEP: the audio `inbound-rtp`'s `packetsReceived`) or sent (WHIP publish: the
        /// audio `outbound-rtp`'s `packetsSent`).
        public var audioPackets: Int?
        /// The status of the DELETE that ended the WHEP or WHIP session.
        public var deleteStatus: Int?
        /// The pictures the browser's encoder made (WHIP publish: the video `outbound-rtp`'s `framesEncoded`).
        public var framesEncoded: Int?
        /// The pictures it sent (WHIP publish: `framesSent`).
        public var framesSent: Int?
        /// The video codec it sent with: the `codec` stats' `mimeType` and `sdpFmtpLine` (WHIP publish).
        public var videoCodec: String?
        /// The audio codec it sent with (WHIP publish).
        public var audioCodec: String?
        /// The fake camera's picture size, `WIDTHxHEIGHT` from the track's settings (WHIP publish).
        public var cameraSize: String?
        /// The key frames its encoder made (WHIP publish: `keyFramesEncoded`).
        public var keyFramesEncoded: Int?
        /// The PLIs it received (WHIP publish: `pliCount`).
        public var pliCount: Int?
        /// The NACKs it received (WHIP publish: `nackCount`).
        public var nackCount: Int?
        /// The frames whose capture time could be read back (WHEP only: pictures of a camera that stamps a
        /// `CaptureTimecode`, read from each frame drawn onto a canvas in `requestVideoFrameCallback`).
        public var timecodes: Int?
        /// Glass-to-glass latency in ms over those frames — the frame's expected display time on the browser's
        /// clock minus the capture time stamped into it (one machine, one clock): the median, the 95th
        /// percentile and the largest.
        public var latencyMedian: Double?
        /// The 95th percentile of the latency in ms.
        public var latencyP95: Double?
        /// The largest latency in ms.
        public var latencyMax: Double?
        /// The smallest latency in ms (below zero only if the clocks or the reading were wrong).
        public var latencyMin: Double?

        /// The report as JSON-like text, for failure messages.
        public var description: String {
            "done=\(done) frames=\(totalVideoFrames.map(String.init) ?? "-") dropped=\(droppedVideoFrames.map(String.init) ?? "-") "
                + "duration=\(duration.map { "\($0)" } ?? "-") size=\(width ?? 0)x\(height ?? 0) segments=\(segments ?? 0) "
                + "buffered=\(buffered ?? []) ice=\(iceState ?? "-") audioPackets=\(audioPackets.map(String.init) ?? "-") "
                + "delete=\(deleteStatus.map(String.init) ?? "-") encoded=\(framesEncoded.map(String.init) ?? "-") "
                + "sent=\(framesSent.map(String.init) ?? "-") keyFrames=\(keyFramesEncoded.map(String.init) ?? "-") "
                + "pli=\(pliCount.map(String.init) ?? "-") nack=\(nackCount.map(String.init) ?? "-") camera=\(cameraSize ?? "-") codecs=\(videoCodec ?? "-")/\(audioCodec ?? "-") timecodes=\(timecodes.map(String.init) ?? "-") "
                + "latency ms min/median/p95/max=\(latencyMin ?? -1)/\(latencyMedian ?? -1)/\(latencyP95 ?? -1)/\(latencyMax ?? -1) errors=\(errors)"
        }
    }

    /// What a run produced: the report and, when asked for, the screenshot.
    public struct Result: Sendable {
        /// The page's report, read from the dumped DOM.
        public var report: Report
        /// The screenshot's path, if one was taken.
        public var screenshot: URL?
    }

    /// What to play.
    public enum Media: Sendable {
        /// An MP4 file in a `<video>` element; the name is relative to the served folder.
        case mp4(String)
        /// An HLS playlist through Media Source Extensions: a media playlist (its `EXT-X-MAP` and
        /// segments), or a multivariant playlist (its first variant, with that variant's `CODECS`).
        /// `codecs` is the source buffer's codecs string for a media playlist; `nil` reads them from
        /// the init segment's `avcC` and `esds`, as hls.js does.
        case hls(playlist: String, codecs: String?)
        /// A live stream from a WHEP endpoint (an absolute `http://` URL: the page is of another origin, so CORS
        /// applies): recvonly video and audio, played until `frames` pictures are decoded (or 20 s pass), then
        /// the session is DELETEd. Inside a network namespace with loopback alone, Chromium runs ICE only
        /// with media permission, which the run grants (`--use-fake-ui-for-media-stream`).
        case whep(url: String, frames: Int)
        /// The browser publishes its fake camera and microphone to a WHIP endpoint (an absolute `http://` URL of another
        /// origin): sendonly video and audio transceivers, the offer POSTed (with `Authorization: Bearer token` when a
        /// token is given), `seconds` of media once connected, the counters read from `getStats`, then the resource
        /// DELETEd. The report's `width`/`height` are the sent pictures' (`outbound-rtp`), `framesEncoded`/`framesSent`
        /// what went out.
        case whipPublish(url: String, seconds: Double, token: String? = nil)
    }

    /// The Chromium binary on `PATH`.
    public static let chromium = "chromium"

    /// Whether browser tests should run: Chromium, Python and `timeout` are installed, or `CI=true`.
    public static var isRunnable: Bool { ExternalTool.isRunnable(chromium, "python3", "timeout") }

    /// Plays media from a folder in headless Chromium, once for the DOM report and, if asked, once more
    /// for a screenshot (of the last frame, once playback has ended).
    /// - Parameters:
    ///   - media: what to play, relative to `folder`.
    ///   - folder: the folder served over HTTP (the page and server script are written into it).
    ///   - screenshotSize: the window size of a screenshot; `nil` takes none.
    ///   - timeout: the longest a run may take, in seconds.
    /// - Returns: the report and the screenshot's path.
    /// - Throws: ``ExternalTool/Failure`` if a tool is missing, the server does not start, or Chromium
    ///   produced no report.
    public static func play(_ media: Media, in folder: URL, screenshotSize: (width: Int, height: Int)? = nil,
                            timeout: Int = 40) throws -> Result {
        try page.write(to: folder.appendingPathComponent("_player.html"), atomically: true, encoding: .utf8)
        try serverScript.write(to: folder.appendingPathComponent("_server.py"), atomically: true, encoding: .utf8)
        let query: String
        switch media {
        case let .mp4(name): query = "mp4=\(escaped(name))"
        case let .hls(playlist, codecs): query = "playlist=\(escaped(playlist))" + (codecs.map { "&codecs=\(escaped($0))" } ?? "")
        case let .whep(url, frames): query = "whep=\(escaped(url))&frames=\(frames)"
        case let .whipPublish(url, seconds, token): query = "whip=\(escaped(url))&seconds=\(seconds)" + (token.map { "&token=\(escaped($0))" } ?? "")
        }
        var webRTC: [String] = []
        switch media {
        case .whep: webRTC = ["--allow-loopback-in-peer-connection", "--use-fake-ui-for-media-stream"]
        case .whipPublish: webRTC = ["--allow-loopback-in-peer-connection", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
        default: break
        }
        let report = try withServer(folder: folder, timeout: timeout) { port in
            let output = try runChromium(webRTC + ["--dump-dom", "http://127.0.0.1:\(port)/_player.html?\(query)"], folder: folder,
                                         timeout: timeout)
            return try parseReport(fromDOM: output.text, stderr: output.standardError)
        }
        var screenshot: URL?
        if let size = screenshotSize {
            let file = folder.appendingPathComponent("_screenshot.png")
            try? FileManager.default.removeItem(at: file)
            try withServer(folder: folder, timeout: timeout) { port in
                let output = try runChromium(["--hide-scrollbars", "--window-size=\(size.width),\(size.height)", "--screenshot=\(file.path)",
                                              "http://127.0.0.1:\(port)/_player.html?\(query)&fill=1"], folder: folder, timeout: timeout)
                guard FileManager.default.fileExists(atPath: file.path) else {
                    throw ExternalTool.Failure(command: "chromium --screenshot", message: "no screenshot: \(output.standardError.suffix(600))")
                }
            }
            screenshot = file
        }
        return Result(report: report, screenshot: screenshot)
    }

    /// The mean and variance of a picture's luma (decoded to 8-bit gray by ffmpeg): a black or blank
    /// picture has a variance near zero.
    /// - Parameter image: a PNG (or any picture ffmpeg reads).
    /// - Returns: the mean (0…255) and the variance of the gray values, and their count.
    /// - Throws: ``ExternalTool/Failure`` if ffmpeg fails or the picture is empty.
    public static func grayStatistics(of image: URL) throws -> (mean: Double, variance: Double, count: Int) {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", image.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let values = [UInt8](output.standardOutput)
        guard !values.isEmpty else { throw ExternalTool.Failure(command: "ffmpeg \(image.path)", message: "no pixels") }
        let mean = values.reduce(0.0) { $0 + Double($1) } / Double(values.count)
        let variance = values.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(values.count)
        return (mean, variance, values.count)
    }

    // MARK: - Running

    /// Starts the HTTP server on a free port of 24000–24999, runs `body`, stops the server.
    private static func withServer<T>(folder: URL, timeout: Int, _ body: (Int) throws -> T) throws -> T {
        guard let python = ExternalTool.path(of: "python3") else {
            throw ExternalTool.Failure(command: "python3", message: "python3 is not installed")
        }
        var lastFailure = "no port tried"
        for _ in 0..<8 {
            let port = Int.random(in: 24000...24999)
            let ready = folder.appendingPathComponent("_server-ready-\(port)")
            let reportFile = folder.appendingPathComponent("_report.json")
            try? FileManager.default.removeItem(at: ready)
            try? FileManager.default.removeItem(at: reportFile)
            let server = Process()
            server.executableURL = URL(fileURLWithPath: python)
            server.arguments = [folder.appendingPathComponent("_server.py").path, folder.path, String(port), reportFile.path, ready.path, String(timeout)]
            server.standardInput = FileHandle.nullDevice
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            defer {
                stop(server)
                try? FileManager.default.removeItem(at: ready)
            }
            let deadline = Date().addingTimeInterval(10)
            while server.isRunning, !FileManager.default.fileExists(atPath: ready.path), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            guard server.isRunning, FileManager.default.fileExists(atPath: ready.path) else {
                lastFailure = "the server did not start on port \(port)"
                continue
            }
            return try body(port)
        }
        throw ExternalTool.Failure(command: "python3 _server.py", message: lastFailure)
    }

    /// Stops a process this harness started: `SIGTERM`, then `SIGKILL` after 2 s (a child can inherit a
    /// signal mask that blocks `SIGTERM` from the test runner's thread).
    private static func stop(_ process: Process) {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs headless Chromium with a profile of its own, bounded by `timeout -k 5`.
    private static func runChromium(_ arguments: [String], folder: URL, timeout: Int) throws -> ExternalTool.Output {
        let profile = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        let flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                     "--user-data-dir=\(profile.path)"]
        return try ExternalTool.run("timeout", ["-k", "5", String(timeout + 10), chromium] + flags + arguments)
    }

    /// The JSON report in the dumped DOM's `<pre id="result">`.
    private static func parseReport(fromDOM dom: String, stderr: String) throws -> Report {
        guard let tag = dom.range(of: "<pre id=\"result\""), let open = dom.range(of: ">", range: tag.upperBound..<dom.endIndex),
              let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex) else {
            throw ExternalTool.Failure(command: "chromium --dump-dom", message: "no report in the page: \(dom.prefix(300)) \(stderr.suffix(600))")
        }
        let text = String(dom[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        guard text != "pending" else {
            throw ExternalTool.Failure(command: "chromium --dump-dom", message: "the page did not finish (timeout?): \(stderr.suffix(600))")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
        } catch {
            throw ExternalTool.Failure(command: "chromium --dump-dom", message: "unreadable report \(text): \(error)")
        }
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~/"))) ?? text
    }

    // MARK: - The page and the server

    /// The player page: `?mp4=NAME` plays a file in `<video>`; `?playlist=NAME[&codecs=…]` appends an
    /// HLS playlist's init and media segments to a MediaSource source buffer, then plays to the end.
    static let page = #"""
    <!DOCTYPE html>
    <html><head><meta charset="utf-8"><title>pending</title></head>
    <body style="margin:0;background:#000;overflow:hidden">
    <video id="v" muted playsinline style="display:block;width:320px;height:240px"></video>
    <pre id="result" style="color:#fff">pending</pre>
    <img src="/hold" alt="" style="display:none">
    <script>
    const params = new URLSearchParams(location.search);
    const video = document.getElementById('v');
    if (params.get('fill')) { video.style.width = '100vw'; video.style.height = '100vh'; video.style.objectFit = 'fill'; }
    const errors = [];
    function report(o) {
      const t = JSON.stringify(o); document.title = t; document.getElementById('result').textContent = t;
      navigator.sendBeacon('/report', t);
    }
    async function load(url) {
      const r = await fetch(url, { cache: 'no-store' }); if (!r.ok) throw new Error('GET ' + url + ': ' + r.status);
      return r.arrayBuffer();
    }
    function attribute(line, name) {
      const m = new RegExp('(?:^|[:,])' + name + '=("[^"]*"|[^,]*)').exec(line);
      return m ? m[1].replace(/^"|"$/g, '') : null;
    }
    async function readPlaylist(url, codecs) {
      const text = new TextDecoder().decode(await load(url));
      const lines = text.split(/\r?\n/);
      if (lines[0] !== '#EXTM3U') throw new Error('not a playlist: ' + lines[0]);
      let init = null, pendingInf = null; const segments = [];
      for (let i = 0; i < lines.length; i++) {
        const l = lines[i];
        if (l.startsWith('#EXT-X-STREAM-INF:')) {
          const next = lines.slice(i + 1).find(x => x && !x.startsWith('#'));
          return readPlaylist(new URL(next, url).href, attribute(l, 'CODECS'));
        }
        if (l.startsWith('#EXT-X-MAP:')) init = new URL(attribute(l, 'URI'), url).href;
        else if (l && !l.startsWith('#')) segments.push(new URL(l, url).href);
      }
      if (!init) throw new Error('no EXT-X-MAP');
      return { init, segments, codecs };
    }
    function append(sb, data) {
      return new Promise((resolve, reject) => {
        const ok = () => { sb.removeEventListener('error', bad); resolve(); };
        const bad = () => { sb.removeEventListener('updateend', ok); reject(new Error('appendBuffer failed')); };
        sb.addEventListener('updateend', ok, { once: true }); sb.addEventListener('error', bad, { once: true });
        sb.appendBuffer(data);
      });
    }
    function playToEnd() {
      return new Promise((resolve) => {
        if (video.ended) return resolve();
        video.addEventListener('ended', resolve, { once: true });
        video.play().catch(e => { errors.push('play: ' + e); resolve(); });
      });
    }
    function quality(extra) {
      const q = video.getVideoPlaybackQuality();
      return Object.assign({ done: errors.length === 0, errors, duration: video.duration, currentTime: video.currentTime,
        totalVideoFrames: q.totalVideoFrames, droppedVideoFrames: q.droppedVideoFrames,
        width: video.videoWidth, height: video.videoHeight }, extra);
    }
    async function playMP4(name) {
      video.src = name;
      await playToEnd();
      return quality({});
    }
    function find(bytes, type, from) {
      const t = [...type].map(c => c.charCodeAt(0));
      for (let i = from || 0; i + 4 <= bytes.length; i++) if (bytes[i] === t[0] && bytes[i+1] === t[1] && bytes[i+2] === t[2] && bytes[i+3] === t[3]) return i;
      return -1;
    }
    // Without CODECS, the codecs of the init segment's sample entries (as hls.js does): avcC's profile,
    // constraints and level; esds's DecoderSpecificInfo object type.
    function codecsOf(init) {
      const b = new Uint8Array(init), found = [], hex = x => x.toString(16).padStart(2, '0');
      const avcC = find(b, 'avcC');
      if (avcC >= 0) found.push((find(b, 'avc3') >= 0 ? 'avc3.' : 'avc1.') + hex(b[avcC + 5]) + hex(b[avcC + 6]) + hex(b[avcC + 7]));
      const esds = find(b, 'esds');
      if (esds >= 0) {
        for (let i = esds + 8; i < b.length - 2; i++) if (b[i] === 0x05) {
          let j = i + 1; while (b[j] & 0x80) j++;
          found.push('mp4a.40.' + (b[j + 1] >> 3)); break;
        }
      }
      return found.join(',');
    }
    async function playHLS(name) {
      const playlist = await readPlaylist(new URL(name, location.href).href, params.get('codecs'));
      const { init, segments } = playlist;
      const initData = await load(init);
      const codecs = playlist.codecs || codecsOf(initData);
      const mime = 'video/mp4; codecs="' + codecs + '"';
      if (!MediaSource.isTypeSupported(mime)) throw new Error('not supported: ' + mime);
      const ms = new MediaSource();
      video.src = URL.createObjectURL(ms);
      await new Promise(r => ms.addEventListener('sourceopen', r, { once: true }));
      const sb = ms.addSourceBuffer(mime);
      await append(sb, initData);
      for (const s of segments) await append(sb, await load(s));
      const buffered = []; for (let i = 0; i < sb.buffered.length; i++) buffered.push([sb.buffered.start(i), sb.buffered.end(i)]);
      ms.endOfStream();
      await playToEnd();
      return quality({ segments: segments.length, buffered, codecs });
    }
    // The capture time a camera burnt into the picture (Capture's CaptureTimecode): 2 rows of 24 blocks at the
    // bottom — the mark 1011, 40 bits of ms since 1970 modulo 2^40, a check nibble (the sum of the 10 nibbles).
    const latencies = [], canvas = document.createElement('canvas');
    function readTimecode() {
      const w = video.videoWidth, h = video.videoHeight;
      if (w < 48) return null;
      const side = Math.max(2, Math.floor(w / 24) & ~1), top = (h - 2 * side) & ~1;
      if (h < 2 * side) return null;
      if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
      const context = canvas.getContext('2d', { willReadFrequently: true });
      context.drawImage(video, 0, 0, w, h);
      const pixels = context.getImageData(0, top, 24 * side, 2 * side).data, bits = [];
      for (let i = 0; i < 48; i++) {
        const x0 = (i % 24) * side + (side >> 2), y0 = Math.floor(i / 24) * side + (side >> 2), span = Math.max(1, side >> 1);
        let sum = 0;
        for (let y = y0; y < y0 + span; y++) for (let x = x0; x < x0 + span; x++) {
          const o = (y * 24 * side + x) * 4; sum += 0.299 * pixels[o] + 0.587 * pixels[o + 1] + 0.114 * pixels[o + 2];
        }
        bits.push(sum / (span * span) >= 128 ? 1 : 0);
      }
      if (bits[0] !== 1 || bits[1] !== 0 || bits[2] !== 1 || bits[3] !== 1) return null;
      let value = 0, check = 0, nibbles = 0;
      for (let i = 4; i < 44; i++) value = value * 2 + bits[i];
      for (let i = 44; i < 48; i++) check = check * 2 + bits[i];
      for (let n = 0, v = value; n < 10; n++, v = Math.floor(v / 16)) nibbles += v % 16;
      return (nibbles % 16) === check ? value : null;
    }
    function onVideoFrame(now, metadata) {
      const stamped = readTimecode();
      if (stamped !== null) {
        // The wall clock (as the camera's), moved on to when the compositor expects to show the frame.
        const shown = (Date.now() + Math.max(0, (metadata.expectedDisplayTime || now) - performance.now())) % 2 ** 40;
        let latency = (shown - stamped + 2 ** 40) % 2 ** 40;
        if (latency >= 2 ** 39) latency -= 2 ** 40;
        latencies.push(latency);
      }
      video.requestVideoFrameCallback(onVideoFrame);
    }
    function percentile(values, p) {
      if (!values.length) return null;
      const sorted = [...values].sort((a, b) => a - b);
      return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 10) / 10;
    }
    async function playWHEP(url, frames) {
      video.requestVideoFrameCallback(onVideoFrame);
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
      pc.ontrack = e => { if (e.track.kind === 'video') { video.srcObject = e.streams[0] || new MediaStream([e.track]); video.play().catch(() => {}); } };
      await pc.setLocalDescription(await pc.createOffer());
      const posted = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp });
      if (posted.status !== 201) throw new Error('POST ' + url + ': ' + posted.status + ' ' + await posted.text());
      const location = new URL(posted.headers.get('Location'), url).href;
      await pc.setRemoteDescription({ type: 'answer', sdp: await posted.text() });
      let inbound = null, audio = null;
      for (let i = 0; i < 100; i++) {
        await new Promise(r => setTimeout(r, 200));
        (await pc.getStats()).forEach(s => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') inbound = s;
          if (s.type === 'inbound-rtp' && s.kind === 'audio') audio = s;
        });
        if (inbound && inbound.framesDecoded >= frames) break;
      }
      const iceState = pc.iceConnectionState;
      const deleted = await fetch(location, { method: 'DELETE' });
      pc.close();
      const decoded = inbound ? inbound.framesDecoded : 0;
      if (decoded < frames) errors.push('decoded ' + decoded + ' of ' + frames + ' frames, ICE ' + iceState);
      return { done: errors.length === 0, errors, totalVideoFrames: decoded, width: inbound ? inbound.frameWidth : 0,
               height: inbound ? inbound.frameHeight : 0, iceState, audioPackets: audio ? audio.packetsReceived : 0,
               deleteStatus: deleted.status, timecodes: latencies.length, latencyMedian: percentile(latencies, 0.5),
               latencyP95: percentile(latencies, 0.95), latencyMax: percentile(latencies, 1), latencyMin: percentile(latencies, 0) };
    }
    // The browser as a WHIP publisher: its fake camera and microphone, sendonly; what it encoded and sent from getStats.
    async function publishWHIP(url, seconds, token) {
      const sleep = ms => new Promise(r => setTimeout(r, ms));
      const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
      const settings = stream.getVideoTracks()[0].getSettings();
      const pc = new RTCPeerConnection();
      const senders = stream.getTracks().map(track => pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] }).sender);
      await pc.setLocalDescription(await pc.createOffer());
      const auth = token ? { Authorization: 'Bearer ' + token } : {};
      const posted = await fetch(url, { method: 'POST', headers: Object.assign({ 'Content-Type': 'application/sdp' }, auth), body: pc.localDescription.sdp });
      const answer = await posted.text();
      if (posted.status !== 201) throw new Error('POST ' + url + ': ' + posted.status + ' ' + answer);
      const location = new URL(posted.headers.get('Location'), url).href;
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      // Keep the camera's size on a busy machine: lower the frame rate rather than the resolution.
      for (const sender of senders) if (sender.track.kind === 'video') {
        try { const p = sender.getParameters(); p.degradationPreference = 'maintain-resolution'; await sender.setParameters(p); }
        catch (e) { errors.push('setParameters: ' + e); }
      }
      for (let i = 0; i < 100 && pc.connectionState !== 'connected'; i++) await sleep(100);
      const iceState = pc.iceConnectionState;
      if (pc.connectionState !== 'connected') errors.push('not connected: ' + pc.connectionState);
      await sleep(seconds * 1000);
      const stats = await pc.getStats();
      let video = null, audio = null;
      stats.forEach(s => {
        if (s.type === 'outbound-rtp' && s.kind === 'video') video = s;
        if (s.type === 'outbound-rtp' && s.kind === 'audio') audio = s;
      });
      const codec = s => { const c = s && s.codecId ? stats.get(s.codecId) : null; return c ? c.mimeType + (c.sdpFmtpLine ? ' ' + c.sdpFmtpLine : '') : null; };
      const deleted = await fetch(location, { method: 'DELETE', headers: auth });
      stream.getTracks().forEach(t => t.stop());
      pc.close();
      if (!video) errors.push('no video outbound-rtp');
      return { done: errors.length === 0, errors, iceState, deleteStatus: deleted.status,
               framesEncoded: video ? video.framesEncoded : 0, framesSent: video ? video.framesSent : 0,
               width: video ? video.frameWidth : 0, height: video ? video.frameHeight : 0,
               audioPackets: audio ? audio.packetsSent : 0, videoCodec: codec(video), audioCodec: codec(audio),
               cameraSize: settings.width + 'x' + settings.height, keyFramesEncoded: video ? video.keyFramesEncoded : 0,
               pliCount: video ? video.pliCount : 0, nackCount: video ? video.nackCount : 0 };
    }
    video.addEventListener('error', () => errors.push('video: ' + (video.error ? video.error.code + ' ' + video.error.message : '?')));
    (params.get('whip') ? publishWHIP(params.get('whip'), Number(params.get('seconds') || 5), params.get('token'))
      : params.get('whep') ? playWHEP(params.get('whep'), Number(params.get('frames') || 60))
      : params.get('mp4') ? playMP4(params.get('mp4')) : playHLS(params.get('playlist')))
      .then(r => report(r), e => { errors.push(String(e)); report({ done: false, errors }); });
    </script></body></html>
    """#

    /// The loopback server: serves the folder; `GET /hold` answers once `POST /report` has come (or the
    /// timeout passed); it writes the report and stops by itself after the timeout.
    static let serverScript = #"""
    import functools, http.server, sys, threading
    directory, port, report_path, ready_path, timeout = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5])
    reported = threading.Event()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.startswith('/hold'):
                reported.wait(timeout)
                self.send_response(204)
                self.send_header('Cache-Control', 'no-store')
                self.end_headers()
                return
            super().do_GET()

        def do_POST(self):
            body = self.rfile.read(min(int(self.headers.get('Content-Length', '0')), 1 << 20))
            if self.path.startswith('/report'):
                with open(report_path, 'wb') as f:
                    f.write(body)
                reported.set()
            self.send_response(204)
            self.end_headers()

    http.server.SimpleHTTPRequestHandler.extensions_map.update({'.m4s': 'video/iso.segment', '.m3u8': 'application/vnd.apple.mpegurl', '.mp4': 'video/mp4'})
    server = http.server.ThreadingHTTPServer(('127.0.0.1', port), functools.partial(Handler, directory=directory))
    server.daemon_threads = True
    threading.Timer(timeout + 20, server.shutdown).start()
    open(ready_path, 'w').close()
    server.serve_forever()
    """#
}

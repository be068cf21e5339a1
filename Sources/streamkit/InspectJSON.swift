import Containers

/// The `inspect --json` object (one per run), with keys in the documented order.
enum InspectJSON {
    /// Builds the JSON object for a report.
    /// - Parameters:
    ///   - report: what was read.
    ///   - includeNALUnits: whether to add `nal_unit_list` (`--nal`).
    /// - Returns: the object.
    static func object(for report: StreamReport, includeNALUnits: Bool) -> JSONValue {
        var members: [(String, JSONValue)]
        switch report {
        case let .video(video):
            members = [
                ("codec", .string(video.codec == .hevc ? "hevc" : "h264")),
                ("profile", video.profile.map(JSONValue.string) ?? .null),
                ("level", video.level.map(JSONValue.string) ?? .null),
                ("width", video.width.map(JSONValue.integer) ?? .null),
                ("height", video.height.map(JSONValue.integer) ?? .null),
                ("frame_rate", video.frameRate.map(JSONValue.number) ?? .null),
                ("frames", .array(video.frames.map { frame in
                    .object([
                        ("index", .integer(frame.index)),
                        ("type", .string(frame.type.rawValue)),
                        ("key", .bool(frame.isKey)),
                        ("size", .integer(frame.size)),
                        ("nal_types", .array(frame.nalTypes.map(JSONValue.integer))),
                    ])
                })),
                ("nal_units", .integer(video.nalUnitCount)),
            ]
            if includeNALUnits {
                members.append(("nal_unit_list", .array(video.nalUnits.map { unit in
                    var fields: [(String, JSONValue)] = [
                        ("index", .integer(unit.index)), ("offset", .integer(unit.byteOffset)),
                        ("size", .integer(unit.size)), ("type", .integer(unit.type)), ("name", .string(unit.typeName)),
                    ]
                    if let idc = unit.referenceIDC { fields.append(("ref_idc", .integer(idc))) }
                    if let tid = unit.temporalID { fields.append(("temporal_id", .integer(tid))) }
                    return .object(fields)
                })))
            }
        case let .audio(audio):
            members = [
                ("codec", .string("aac")),
                ("profile", audio.profile.map(JSONValue.string) ?? .null),
                ("sample_rate", audio.sampleRate.map(JSONValue.integer) ?? .null),
                ("channels", audio.channelCount.map(JSONValue.integer) ?? .null),
                ("frames", .integer(audio.frameCount)),
            ]
        }
        if !report.issues.isEmpty {
            members.append(("errors", .array(report.issues.map { .string($0.description) })))
        }
        return .object(members)
    }
}

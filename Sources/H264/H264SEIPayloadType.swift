/// `payloadType` of an SEI message (ITU-T H.264 Annex D, §D.1.1), with the names of the types the
/// specification defines.
///
/// Any value can be represented (payload types are open-ended); ``name`` is `nil` for the reserved ones.
public struct H264SEIPayloadType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The coded `payloadType`.
    public var rawValue: UInt32

    /// Creates a payload type from its value.
    /// - Parameter rawValue: `payloadType`.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// 0: buffering period (D.1.2).
    public static let bufferingPeriod = Self(rawValue: 0)
    /// 1: picture timing (D.1.3).
    public static let picTiming = Self(rawValue: 1)
    /// 2: pan-scan rectangle.
    public static let panScanRect = Self(rawValue: 2)
    /// 3: filler payload.
    public static let fillerPayload = Self(rawValue: 3)
    /// 4: user data registered by Rec. ITU-T T.35 (for example CEA-608/708 captions).
    public static let userDataRegisteredITUTT35 = Self(rawValue: 4)
    /// 5: user data unregistered (a UUID and bytes; x264 writes its settings here).
    public static let userDataUnregistered = Self(rawValue: 5)
    /// 6: recovery point (a random access point that is not an IDR picture).
    public static let recoveryPoint = Self(rawValue: 6)
    /// 7: decoded reference picture marking repetition.
    public static let decRefPicMarkingRepetition = Self(rawValue: 7)
    /// 8: spare picture.
    public static let sparePic = Self(rawValue: 8)
    /// 9: scene information.
    public static let sceneInfo = Self(rawValue: 9)
    /// 10: sub-sequence information.
    public static let subSeqInfo = Self(rawValue: 10)
    /// 11: sub-sequence layer characteristics.
    public static let subSeqLayerCharacteristics = Self(rawValue: 11)
    /// 12: sub-sequence characteristics.
    public static let subSeqCharacteristics = Self(rawValue: 12)
    /// 13: full-frame freeze.
    public static let fullFrameFreeze = Self(rawValue: 13)
    /// 14: full-frame freeze release.
    public static let fullFrameFreezeRelease = Self(rawValue: 14)
    /// 15: full-frame snapshot.
    public static let fullFrameSnapshot = Self(rawValue: 15)
    /// 16: progressive refinement segment start.
    public static let progressiveRefinementSegmentStart = Self(rawValue: 16)
    /// 17: progressive refinement segment end.
    public static let progressiveRefinementSegmentEnd = Self(rawValue: 17)
    /// 18: motion-constrained slice group set.
    public static let motionConstrainedSliceGroupSet = Self(rawValue: 18)
    /// 19: film grain characteristics.
    public static let filmGrainCharacteristics = Self(rawValue: 19)
    /// 20: deblocking filter display preference.
    public static let deblockingFilterDisplayPreference = Self(rawValue: 20)
    /// 21: stereo video information.
    public static let stereoVideoInfo = Self(rawValue: 21)
    /// 22: post-filter hint.
    public static let postFilterHint = Self(rawValue: 22)
    /// 23: tone mapping information.
    public static let toneMappingInfo = Self(rawValue: 23)
    /// 45: frame packing arrangement.
    public static let framePackingArrangement = Self(rawValue: 45)
    /// 47: display orientation.
    public static let displayOrientation = Self(rawValue: 47)
    /// 137: mastering display colour volume.
    public static let masteringDisplayColourVolume = Self(rawValue: 137)
    /// 144: content light level information.
    public static let contentLightLevelInfo = Self(rawValue: 144)
    /// 147: alternative transfer characteristics.
    public static let alternativeTransferCharacteristics = Self(rawValue: 147)

    /// The syntax structure's name as Annex D (and Annexes G–J) spell it, for example
    /// `"user_data_unregistered"`; `nil` for reserved values.
    public var name: String? {
        if rawValue < UInt32(Self.namesFrom0.count) { return Self.namesFrom0[Int(rawValue)] }
        return Self.laterNames[rawValue]
    }

    /// The name, or `"reserved (N)"`.
    public var description: String { name ?? "reserved (\(rawValue))" }

    /// Names of payload types 0…54 (`nil` marks a reserved value).
    private static let namesFrom0: [String?] = [
        "buffering_period", "pic_timing", "pan_scan_rect", "filler_payload",
        "user_data_registered_itu_t_t35", "user_data_unregistered", "recovery_point",
        "dec_ref_pic_marking_repetition", "spare_pic", "scene_info", "sub_seq_info",
        "sub_seq_layer_characteristics", "sub_seq_characteristics", "full_frame_freeze",
        "full_frame_freeze_release", "full_frame_snapshot", "progressive_refinement_segment_start",
        "progressive_refinement_segment_end", "motion_constrained_slice_group_set",
        "film_grain_characteristics", "deblocking_filter_display_preference", "stereo_video_info",
        "post_filter_hint", "tone_mapping_info",
        // 24…35: Annex G (scalable video coding)
        "scalability_info", "sub_pic_scalable_layer", "non_required_layer_rep", "priority_layer_info",
        "layers_not_present", "layer_dependency_change", "scalable_nesting", "base_layer_temporal_hrd",
        "quality_layer_integrity_check", "redundant_pic_property", "tl0_dep_rep_index", "tl_switching_point",
        // 36…44: Annex H (multiview video coding)
        "parallel_decoding_info", "mvc_scalable_nesting", "view_scalability_info", "multiview_scene_info",
        "multiview_acquisition_info", "non_required_view_component", "view_dependency_change",
        "operation_points_not_present", "base_view_temporal_hrd",
        "frame_packing_arrangement", "multiview_view_position", "display_orientation",
        // 48…54: Annexes I and J (MVC+D, 3D-AVC)
        "mvcd_scalable_nesting", "mvcd_view_scalability_info", "depth_representation_info",
        "three_dimensional_reference_displays_info", "depth_timing", "depth_sampling_info",
        "constrained_depth_parameter_set_identifier",
    ]

    /// Names of the payload types above 54.
    private static let laterNames: [UInt32: String] = [
        56: "green_metadata",
        137: "mastering_display_colour_volume",
        142: "colour_remapping_info",
        144: "content_light_level_info",
        147: "alternative_transfer_characteristics",
        148: "ambient_viewing_environment",
        149: "content_colour_volume",
        150: "equirectangular_projection",
        151: "cubemap_projection",
        154: "sphere_rotation",
        155: "regionwise_packing",
        156: "omni_viewport",
        181: "alternative_depth_info",
        200: "sei_manifest",
        201: "sei_prefix_indication",
        202: "annotated_regions",
        205: "shutter_interval_info",
    ]
}

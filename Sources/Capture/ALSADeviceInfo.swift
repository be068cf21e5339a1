/// An ALSA PCM device that can capture, as listed by ``ALSAMicrophone/availableDevices(listing:)``.
public struct ALSADeviceInfo: Sendable, Hashable, CustomStringConvertible {
    /// The sound card number.
    public var card: Int
    /// The PCM device number on the card.
    public var device: Int
    /// The device's id, for example "ALC892 Analog".
    public var id: String
    /// The device's name, for example "ALC892 Analog".
    public var displayName: String

    /// The name to open it by: `plughw:CARD,DEVICE` (the plug layer converts rates and formats the hardware lacks).
    public var alsaName: String { "plughw:\(card),\(device)" }

    /// Creates a description.
    /// - Parameters:
    ///   - card: the card number.
    ///   - device: the device number.
    ///   - id: the device id.
    ///   - displayName: the device name.
    public init(card: Int, device: Int, id: String, displayName: String) {
        self.card = card
        self.device = device
        self.id = id
        self.displayName = displayName
    }

    /// "plughw:0,0 (ALC892 Analog)".
    public var description: String { "\(alsaName) (\(displayName))" }

    /// Parses the kernel's PCM listing, keeping the devices with capture substreams.
    ///
    /// Format (Linux `sound/core/pcm.c`, `snd_pcm_proc_read`): one line per PCM device,
    /// `CC-DD: id : name : playback N : capture N`, card and device numbers zero-padded to two digits, the
    /// playback and capture fields present only when the device has such substreams.
    /// - Parameter text: the contents of `/proc/asound/pcm`.
    /// - Returns: the capture devices, in the listing's order; malformed lines are skipped.
    public static func captureDevices(inProcListing text: String) -> [ALSADeviceInfo] {
        var devices: [ALSADeviceInfo] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: " \t") }
            guard fields.count >= 3 else { continue }
            let numbers = fields[0].split(separator: "-")
            guard numbers.count == 2, let card = Int(numbers[0]), let device = Int(numbers[1]),
                  card >= 0, device >= 0 else { continue }
            let hasCapture = fields.dropFirst(3).contains { field in
                let words = field.split(separator: " ")
                return words.count == 2 && words[0] == "capture" && (Int(words[1]) ?? 0) > 0
            }
            guard hasCapture else { continue }
            devices.append(ALSADeviceInfo(card: card, device: device, id: fields[1], displayName: fields[2]))
        }
        return devices
    }
}

private extension Substring {
    /// The text without the given leading and trailing characters.
    func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}

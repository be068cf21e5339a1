/// A V4L2 video capture device found by ``V4L2Camera/availableDevices(in:)``.
public struct V4L2DeviceInfo: Sendable, Hashable, CustomStringConvertible {
    /// The device node, for example `/dev/video0`.
    public var path: String
    /// The card name the driver reports, for example "HD Pro Webcam C920".
    public var card: String
    /// The driver, for example "uvcvideo".
    public var driver: String
    /// The bus the device sits on, for example "usb-0000:00:14.0-1".
    public var busInfo: String

    /// Creates a description.
    /// - Parameters:
    ///   - path: the device node.
    ///   - card: the card name.
    ///   - driver: the driver name.
    ///   - busInfo: the bus location.
    public init(path: String, card: String, driver: String, busInfo: String) {
        self.path = path
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
    }

    /// "/dev/video0 (HD Pro Webcam C920, uvcvideo)".
    public var description: String { "\(path) (\(card), \(driver))" }
}

/// The one-byte type marker that starts every AMF0 value (AMF0 specification, §2.1 "Types Overview").
public enum AMF0TypeMarker: UInt8, Sendable, Hashable, CaseIterable {
    /// `number-marker` (§2.2): an IEEE 754 double.
    case number = 0x00
    /// `boolean-marker` (§2.3).
    case boolean = 0x01
    /// `string-marker` (§2.4): UTF-8 with a 16-bit length.
    case string = 0x02
    /// `object-marker` (§2.5): anonymous object, properties until `object-end-marker`.
    case object = 0x03
    /// `movieclip-marker` (§2.6): reserved, not supported.
    case movieClip = 0x04
    /// `null-marker` (§2.7).
    case null = 0x05
    /// `undefined-marker` (§2.8).
    case undefined = 0x06
    /// `reference-marker` (§2.9): a 16-bit index of an earlier complex value.
    case reference = 0x07
    /// `ecma-array-marker` (§2.10): associative array with a 32-bit count.
    case ecmaArray = 0x08
    /// `object-end-marker` (§2.11): ends object, ECMA array and typed object properties.
    case objectEnd = 0x09
    /// `strict-array-marker` (§2.12): 32-bit count, then the values.
    case strictArray = 0x0A
    /// `date-marker` (§2.13): a double of milliseconds since 1970 and a 16-bit time zone.
    case date = 0x0B
    /// `long-string-marker` (§2.14): UTF-8 with a 32-bit length.
    case longString = 0x0C
    /// `unsupported-marker` (§2.15).
    case unsupported = 0x0D
    /// `recordset-marker` (§2.16): reserved, not supported.
    case recordSet = 0x0E
    /// `xml-document-marker` (§2.17): UTF-8 with a 32-bit length.
    case xmlDocument = 0x0F
    /// `typed-object-marker` (§2.18): a class name, then properties.
    case typedObject = 0x10
    /// `avmplus-object-marker` (§3.1): the value that follows is AMF3 (not supported here).
    case avmPlusObject = 0x11
}

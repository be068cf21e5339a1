import Containers
import Foundation
import MediaCore

/// Which outputs and inputs of the commands are FLV files.
enum FLVOutputOptions {
    /// Whether `path` names an FLV file (`.flv`, any case).
    /// - Parameter path: a command-line path.
    /// - Returns: `true` for `.flv`.
    static func isFLV(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "flv"
    }
}

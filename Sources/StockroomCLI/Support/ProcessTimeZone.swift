import Foundation

/// Names the machine's time zone in `TZ` when it is unset, so that glibc stops re-reading `/etc/localtime` for every
/// local time it formats.
///
/// With `TZ` unset, glibc's `tzset` finds no previous value to compare with and checks the zone file again (a
/// `newfstatat` of `/etc/localtime`) each time a log line's time stamp is written: about a tenth of a barcode lookup at
/// 16 connections at the default log level (BENCHMARKS.md, "What the request log costs"). Any value of `TZ` stops that,
/// but Foundation reads `TZ` too and does not understand glibc's `:/etc/localtime` form (it answers `Etc/UTC`), so the
/// zone's own name is used, read from where the `/etc/localtime` link points (`…/zoneinfo/Europe/Paris`). Nothing
/// changes when `TZ` is set, when `/etc/localtime` is a plain file, or when the name is not a zone Foundation knows.
/// A change of the machine's zone while the server runs then reaches the log's time stamps at the next start.
public enum ProcessTimeZone {
    /// The zone name for `TZ`, or nil to leave it alone.
    static func name(environment: [String: String], localtime: String) -> String? {
        guard environment["TZ"] == nil,
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
            let marker = target.range(of: "zoneinfo/", options: .backwards)
        else { return nil }
        let name = String(target[marker.upperBound...])
        guard !name.isEmpty, !name.hasPrefix("posix/"), !name.hasPrefix("right/"), TimeZone(identifier: name) != nil else { return nil }
        return name
    }

    /// Sets `TZ` to the machine zone's name when it is unset (see the type's notes). Call it first thing in `main`,
    /// before anything reads the local time zone.
    public static func nameTheMachineZone() {
        if let name = self.name(environment: ProcessInfo.processInfo.environment, localtime: "/etc/localtime") {
            setenv("TZ", name, 0)
        }
    }
}

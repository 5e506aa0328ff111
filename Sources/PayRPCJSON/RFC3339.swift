#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 `date-time` parsing and formatting.
///
/// Written by hand because `ISO8601DateFormatter` is a class that is not `Sendable`, costs
/// microseconds per call, and accepts forms RFC 3339 does not; this is the strict grammar
/// (`2026-01-31T12:00:00Z`, `2026-01-31T12:00:00.250+01:00`) and nothing else.
public enum RFC3339 {
    /// Parses a full `date-time`; returns nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, isDigit(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10),
            bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            bytes[16] == UInt8(ascii: ":"), let second = number(17..<19)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHour = number(index + 1..<index + 3), index + 3 < bytes.count,
                bytes[index + 3] == UInt8(ascii: ":"), let offsetMinute = number(index + 4..<index + 6),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats a date in UTC, with milliseconds only when the date has a fraction of a second.
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var whole = Int(interval.rounded(.down))
        var millis = Int(((interval - Double(whole)) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondsOfDay = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        if (0...9999).contains(year) {
            // Every date a service writes: the digits straight into the string's bytes (this runs
            // for every timestamp of every answer; the interpolating path below cost 3 % of a
            // durable call's CPU).
            return String(unsafeUninitializedCapacity: millis != 0 ? 24 : 20) { buffer in
                var position = 0
                func digits(_ value: Int, _ width: Int, then separator: Character) {
                    var rest = value
                    for offset in stride(from: width - 1, through: 0, by: -1) {
                        buffer[position + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    }
                    buffer[position + width] = separator.asciiValue!
                    position += width + 1
                }
                digits(year, 4, then: "-")
                digits(month, 2, then: "-")
                digits(day, 2, then: "T")
                digits(secondsOfDay / 3600, 2, then: ":")
                digits(secondsOfDay / 60 % 60, 2, then: ":")
                if millis != 0 {
                    digits(secondsOfDay % 60, 2, then: ".")
                    digits(millis, 3, then: "Z")
                } else {
                    digits(secondsOfDay % 60, 2, then: "Z")
                }
                return position
            }
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):"
            + "\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

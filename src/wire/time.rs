//! Unix epoch milliseconds → RFC 3339 / ProtoJSON `google.protobuf.Timestamp`.

/// Formats `ms` (Unix epoch milliseconds, UTC) as `YYYY-MM-DDTHH:MM:SS.sssZ`,
/// the millisecond form A2A v1.0 asks for (spec §5.6.1). Uses Howard
/// Hinnant's civil-from-days; valid for the years 0001–9999 that ProtoJSON
/// timestamps allow.
pub fn timestamp(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        sod / 3600,
        sod % 3600 / 60,
        sod % 60,
        ms.rem_euclid(1000)
    )
}

#pragma once

// The time zone names of the tz (IANA) database installed with the system. GCC 12's libstdc++
// has no std::chrono::locate_zone, so the database is read directly: one TZif file per zone
// under /usr/share/zoneinfo (Debian's tzdata package), or under $TZDIR when it is set, as glibc
// reads it. Thread-safe (no state).

#include <optional>
#include <string>
#include <string_view>

namespace higgins {

/// The folder of the system's tz database: $TZDIR when set and not empty, else
/// /usr/share/zoneinfo.
std::string TzDatabaseDir();

/// Whether `name` (like `Europe/Paris`, `UTC`) is a zone of the tz database in `dir`: a file
/// (or a link to one) at dir/name that starts with the TZif magic. A name that is empty, starts
/// with '/' or has a `.` or `..` component is never a zone. nullopt when `dir` is not a readable
/// folder: there is no database to check against.
std::optional<bool> IsTzZone(std::string_view name, const std::string& dir = TzDatabaseDir());

}  // namespace higgins

#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace higgins::config {

/// A `[storage.<name>]` block's `type`.
enum class StorageKind { kMemory, kFile, kS3 };
/// "memory", "file", "s3".
std::string_view StorageKindName(StorageKind kind);

/// Bounds of the size options that the configuration checks (docs/configuration.md, "Storage").
inline constexpr uint64_t kMinSegmentBytes = 4096;
inline constexpr uint64_t kMaxSegmentBytes = 4ull << 30;
inline constexpr uint64_t kMinMultipartThresholdBytes = 5ull << 20;  // S3's smallest part
inline constexpr uint64_t kMaxMultipartThresholdBytes = 5ull << 30;  // S3's largest part
inline constexpr std::chrono::milliseconds kMaxSegmentMaxAge = std::chrono::hours(24);

/// `type = "memory"`: takes no options.
struct MemoryStorageSettings {
  friend bool operator==(const MemoryStorageSettings&, const MemoryStorageSettings&) = default;
};

/// `type = "file"`. An unset option takes the storage's default (docs/configuration.md).
struct FileStorageSettings {
  /// `segment_bytes`: bytes after which a segment file is closed, kMinSegmentBytes to
  /// kMaxSegmentBytes.
  std::optional<uint64_t> segment_bytes;
  /// `fsync`: whether an append is fdatasynced before it is acknowledged (unset: true).
  std::optional<bool> fsync;
  friend bool operator==(const FileStorageSettings&, const FileStorageSettings&) = default;
};

/// `type = "s3"`: a local write-ahead log uploaded as objects. An unset option takes the
/// storage's default (docs/configuration.md, "s3 storage").
struct S3StorageSettings {
  std::optional<std::string> aws_access_key_id;      // credential: never shown or logged
  std::optional<std::string> aws_secret_access_key;  // credential: never shown or logged
  std::optional<std::string> aws_region;
  std::optional<std::string> aws_endpoint;
  std::optional<std::string> bucket;
  /// Object key prefix: segments of '/'-separated non-empty parts.
  std::optional<std::string> prefix;
  std::optional<bool> path_style;
  /// `segment_bytes`: kMinSegmentBytes to kMaxSegmentBytes.
  std::optional<uint64_t> segment_bytes;
  /// `segment_max_age_ms`: 1 ms to kMaxSegmentMaxAge.
  std::optional<std::chrono::milliseconds> segment_max_age;
  /// `local_limit_bytes`: at least 1.
  std::optional<uint64_t> local_limit_bytes;
  std::optional<bool> ack_after_upload;
  /// `read_cache_bytes`: 0 (no cache) or more.
  std::optional<uint64_t> read_cache_bytes;
  /// `multipart_threshold_bytes`: kMinMultipartThresholdBytes to kMaxMultipartThresholdBytes.
  std::optional<uint64_t> multipart_threshold_bytes;
  friend bool operator==(const S3StorageSettings&, const S3StorageSettings&) = default;
};

/// `[storage.<name>]`, typed once by the parser: nothing downstream of config/ reads option
/// strings. The alternative of `settings` is the storage's kind.
struct StorageDecl {
  std::string name;
  std::variant<MemoryStorageSettings, FileStorageSettings, S3StorageSettings> settings;

  StorageKind kind() const { return static_cast<StorageKind>(settings.index()); }
  /// Whether the storage keeps records across restarts (file, s3).
  bool durable() const { return kind() != StorageKind::kMemory; }
  /// Whether an append is synced before it is acknowledged: a file storage unless
  /// `fsync = false`, every s3 storage (its local log), never memory.
  bool syncs() const;

  const FileStorageSettings* file() const { return std::get_if<FileStorageSettings>(&settings); }
  const S3StorageSettings* s3() const { return std::get_if<S3StorageSettings>(&settings); }

  friend bool operator==(const StorageDecl&, const StorageDecl&) = default;
};

}  // namespace higgins::config

// OpenStorage: a `[storage.<name>]` declaration to its backend.
#include "broker/storage_factory.h"

#include <charconv>
#include <cstdlib>

#include "s3/s3_client.h"
#include "storage/s3_storage.h"

namespace higgins {
namespace {

using Options = std::map<std::string, std::string>;

std::string Option(const Options& options, const std::string& key, std::string fallback = "") {
  auto it = options.find(key);
  return it == options.end() ? fallback : it->second;
}

/// An integer option in [min, max]; `fallback` when absent.
Result<uint64_t> Number(const std::string& storage, const Options& options, const std::string& key,
                        uint64_t fallback, uint64_t min, uint64_t max) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  uint64_t value = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return Status::InvalidArgument("storage '" + storage + "': " + key + " = " + text +
                                   " is out of range (" + std::to_string(min) + " to " +
                                   std::to_string(max) + ")");
  }
  return value;
}

Result<std::unique_ptr<storage::Storage>> OpenS3(const std::string& name, const Options& options,
                                                 const std::string& directory) {
  s3::S3Options client;
  client.bucket = Option(options, "bucket");
  if (client.bucket.empty()) {
    return Status::InvalidArgument("storage '" + name + "': type 's3' needs a bucket");
  }
  client.region = Option(options, "aws_region", "us-east-1");
  client.endpoint = Option(options, "aws_endpoint");
  // S3-compatible servers on an endpoint mostly want path-style; AWS itself virtual-hosted.
  client.path_style =
      Option(options, "path_style", client.endpoint.empty() ? "false" : "true") == "true";
  client.access_key_id = Option(options, "aws_access_key_id");
  client.secret_access_key = Option(options, "aws_secret_access_key");
  if (client.access_key_id.empty() && client.secret_access_key.empty()) {
    const char* id = std::getenv("AWS_ACCESS_KEY_ID");
    const char* secret = std::getenv("AWS_SECRET_ACCESS_KEY");
    if (id != nullptr) client.access_key_id = id;
    if (secret != nullptr) client.secret_access_key = secret;
  }
  if (client.access_key_id.empty() || client.secret_access_key.empty()) {
    return Status::InvalidArgument(
        "storage '" + name +
        "': no credentials: set aws_access_key_id and aws_secret_access_key, or "
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the broker's environment");
  }
  HIGGINS_ASSIGN_OR_RETURN(client.multipart_threshold,
                           Number(name, options, "multipart_threshold_bytes",
                                  client.multipart_threshold, 5ull << 20, 5ull << 30));
  auto store = s3::MakeS3ObjectStore(client);
  if (!store.ok()) {
    return Status(store.status().code(), "storage '" + name + "': " + store.status().message());
  }

  storage::S3StorageOptions o;
  o.name = name;
  o.prefix = Option(options, "prefix");
  HIGGINS_ASSIGN_OR_RETURN(o.segment_bytes,
                           Number(name, options, "segment_bytes", o.segment_bytes, 1, 4ull << 30));
  HIGGINS_ASSIGN_OR_RETURN(uint64_t age_ms, Number(name, options, "segment_max_age_ms",
                                                   static_cast<uint64_t>(o.segment_max_age.count()),
                                                   1, 24ull * 3600 * 1000));
  o.segment_max_age = std::chrono::milliseconds(age_ms);
  HIGGINS_ASSIGN_OR_RETURN(o.local_limit_bytes, Number(name, options, "local_limit_bytes",
                                                       o.local_limit_bytes, 1, UINT64_MAX));
  HIGGINS_ASSIGN_OR_RETURN(o.read_cache_bytes, Number(name, options, "read_cache_bytes",
                                                      o.read_cache_bytes, 0, UINT64_MAX));
  o.ack_after_upload = Option(options, "ack_after_upload") == "true";
  return storage::MakeS3Storage(directory, std::shared_ptr<s3::ObjectStore>(*std::move(store)),
                                std::move(o));
}

}  // namespace

Result<std::unique_ptr<storage::Storage>> OpenStorage(const std::string& name,
                                                      const config::StorageDecl& decl,
                                                      const std::string& dir) {
  const std::string directory = dir + "/storage/" + name;
  if (decl.type == "memory") return storage::MakeMemoryStorage();
  if (decl.type == "file") {
    storage::FileStorageOptions file_options;
    HIGGINS_ASSIGN_OR_RETURN(
        file_options.segment_bytes,
        Number(name, decl.options, "segment_bytes", file_options.segment_bytes, 1, 4ull << 30));
    return storage::MakeFileStorage(directory, file_options);
  }
  if (decl.type == "s3") return OpenS3(name, decl.options, directory);
  return Status::NotSupported("storage '" + name + "': type '" + decl.type +
                              "' is not available in this version of the broker");
}

}  // namespace higgins

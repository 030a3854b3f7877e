// OpenStorage: a `[storage.<name>]` declaration to its backend. The declaration is typed and
// range-checked by config/ (docs/configuration.md, "Storage"); what is decided here is what an
// unset option means and where credentials come from.
#include "broker/storage_factory.h"

#include <cstdlib>

#include "s3/s3_client.h"
#include "storage/s3_storage.h"

namespace higgins {
namespace {

Result<std::unique_ptr<storage::Storage>> OpenS3(const std::string& name,
                                                 const config::S3StorageSettings& settings,
                                                 const std::string& directory) {
  s3::S3Options client;
  client.bucket = settings.bucket.value_or("");
  if (client.bucket.empty()) {
    return Status::InvalidArgument("storage '" + name + "': type 's3' needs a bucket");
  }
  client.region = settings.aws_region.value_or("us-east-1");
  client.endpoint = settings.aws_endpoint.value_or("");
  // S3-compatible servers on an endpoint mostly want path-style; AWS itself virtual-hosted.
  client.path_style = settings.path_style.value_or(!client.endpoint.empty());
  client.access_key_id = settings.aws_access_key_id.value_or("");
  client.secret_access_key = settings.aws_secret_access_key.value_or("");
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
  client.multipart_threshold =
      settings.multipart_threshold_bytes.value_or(client.multipart_threshold);
  auto store = s3::MakeS3ObjectStore(client);
  if (!store.ok()) {
    return Status(store.status().code(), "storage '" + name + "': " + store.status().message());
  }

  storage::S3StorageOptions o;
  o.name = name;
  o.prefix = settings.prefix.value_or("");
  o.segment_bytes = settings.segment_bytes.value_or(o.segment_bytes);
  o.segment_max_age = settings.segment_max_age.value_or(o.segment_max_age);
  o.local_limit_bytes = settings.local_limit_bytes.value_or(o.local_limit_bytes);
  o.read_cache_bytes = settings.read_cache_bytes.value_or(o.read_cache_bytes);
  o.ack_after_upload = settings.ack_after_upload.value_or(false);
  return storage::MakeS3Storage(directory, std::shared_ptr<s3::ObjectStore>(*std::move(store)),
                                std::move(o));
}

}  // namespace

Result<std::unique_ptr<storage::Storage>> OpenStorage(const std::string& name,
                                                      const config::StorageDecl& decl,
                                                      const std::string& dir) {
  const std::string directory = dir + "/storage/" + name;
  if (const config::FileStorageSettings* file = decl.file()) {
    storage::FileStorageOptions file_options;
    file_options.segment_bytes = file->segment_bytes.value_or(file_options.segment_bytes);
    return storage::MakeFileStorage(directory, file_options);
  }
  if (const config::S3StorageSettings* s3 = decl.s3()) return OpenS3(name, *s3, directory);
  return storage::MakeMemoryStorage();
}

}  // namespace higgins

// MakeS3ObjectStore: checks the options and builds the S3ObjectStore.
#include "s3/s3_client.h"

#include "s3/s3_object_store.h"

namespace higgins::s3 {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;

Status CheckOptions(const S3Options& o) {
  if (o.access_key_id.empty() || o.secret_access_key.empty()) {
    return Status::InvalidArgument("s3: the access key id and the secret access key are required");
  }
  if (o.part_size < 5 * kMiB || o.part_size > 5 * kGiB) {
    return Status::InvalidArgument("s3 part_size " + std::to_string(o.part_size) +
                                   " is not between 5 MiB and 5 GiB");
  }
  if (o.multipart_threshold == 0 || o.multipart_threshold > 5 * kGiB) {
    return Status::InvalidArgument("s3 multipart_threshold " +
                                   std::to_string(o.multipart_threshold) +
                                   " is not between 1 byte and 5 GiB");
  }
  if (o.list_page_size == 0 || o.list_page_size > 1000) {
    return Status::InvalidArgument("s3 list_page_size " + std::to_string(o.list_page_size) +
                                   " is not between 1 and 1000");
  }
  if (o.max_attempts < 1) return Status::InvalidArgument("s3 max_attempts must be at least 1");
  if (o.backoff_base.count() < 0 || o.backoff_max < o.backoff_base) {
    return Status::InvalidArgument("s3 backoff: need 0 <= backoff_base <= backoff_max");
  }
  if (o.connect_timeout.count() <= 0 || o.request_timeout.count() <= 0) {
    return Status::InvalidArgument("s3 connect_timeout and request_timeout must be positive");
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ObjectStore>> MakeS3ObjectStore(S3Options options) {
  HIGGINS_RETURN_IF_ERROR(CheckOptions(options));
  HIGGINS_RETURN_IF_ERROR(CheckRegion(options.region));
  HIGGINS_ASSIGN_OR_RETURN(Endpoint endpoint, ParseEndpoint(options.endpoint, options.region));
  HIGGINS_ASSIGN_OR_RETURN(
      BucketAddress address,
      BucketAddress::Make(std::move(endpoint), options.bucket, options.path_style));
  return std::unique_ptr<ObjectStore>(
      std::make_unique<S3ObjectStore>(std::move(options), std::move(address)));
}

}  // namespace higgins::s3

// S3ObjectStore's multipart upload: create, upload the parts in order, complete; abort on error.
// Listing the uploads in progress (ListMultipartUploads) and aborting one by id.
#include <algorithm>

#include "s3/s3_object_store.h"
#include "s3/s3_xml.h"

namespace higgins::s3 {
namespace {

constexpr uint64_t kMaxParts = 10'000;             // S3's limit per upload
constexpr uint64_t kMaxListBodyBytes = 16u << 20;  // 1000 uploads of 1024-byte keys, and more
constexpr int kMaxListPages = 1'000'000;

bool IsSuccess(long status) {
  return status >= 200 && status < 300;
}

}  // namespace

Status S3ObjectStore::PutMultipart(const std::string& key, std::span<const uint8_t> data) {
  const uint64_t part_size =
      std::max<uint64_t>(options_.part_size, (data.size() + kMaxParts - 1) / kMaxParts);
  const uint64_t parts = (data.size() + part_size - 1) / part_size;
  HIGGINS_ASSIGN_OR_RETURN(std::string upload_id, CreateMultipartUpload(key));
  std::vector<std::string> etags;
  Status status;
  for (uint64_t i = 0; i < parts && status.ok(); ++i) {
    const uint64_t begin = i * part_size;
    const uint64_t size = std::min<uint64_t>(part_size, data.size() - begin);
    auto etag = UploadPart(key, upload_id, static_cast<int>(i + 1), static_cast<int>(parts),
                           data.subspan(begin, size));
    if (etag.ok()) {
      etags.push_back(*std::move(etag));
    } else {
      status = etag.status();
    }
  }
  if (status.ok()) status = CompleteMultipartUpload(key, upload_id, etags);
  if (status.ok()) return status;
  const Status aborted = Abort(key, upload_id);
  return Status(
      status.code(),
      status.message() + (aborted.ok() ? "; the upload was aborted"
                                       : "; aborting the upload failed too: " + aborted.message()));
}

Result<std::string> S3ObjectStore::CreateMultipartUpload(const std::string& key) {
  const std::string what = "PUT " + key + " (CreateMultipartUpload)";
  HIGGINS_ASSIGN_OR_RETURN(
      HttpResponse response,
      Call(what, MakeRequest("POST", address_.ObjectUrl(key, {{"uploads", ""}}), {},
                             "application/octet-stream")));
  if (!IsSuccess(response.status)) return Refused(what, response);
  auto id = ParseUploadId(response.body.view());
  if (!id.ok()) return id.status().WithContext("s3 " + what);
  return id;
}

Result<std::string> S3ObjectStore::UploadPart(const std::string& key, const std::string& upload_id,
                                              int part_number, int parts,
                                              std::span<const uint8_t> bytes) {
  const std::string what = "PUT " + key + " (UploadPart " + std::to_string(part_number) + " of " +
                           std::to_string(parts) + ")";
  const std::string url = address_.ObjectUrl(
      key, {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}});
  HIGGINS_ASSIGN_OR_RETURN(HttpResponse response,
                           Call(what, MakeRequest("PUT", url, bytes, "application/octet-stream")));
  if (!IsSuccess(response.status)) return Refused(what, response);
  std::string etag = response.Header("etag");
  if (etag.empty()) return Status::IOError("s3 " + what + ": the answer has no ETag");
  return etag;
}

Status S3ObjectStore::CompleteMultipartUpload(const std::string& key, const std::string& upload_id,
                                              const std::vector<std::string>& etags) {
  const std::string what = "PUT " + key + " (CompleteMultipartUpload)";
  const std::string xml = CompleteMultipartUploadXml(etags);
  const std::span<const uint8_t> body(reinterpret_cast<const uint8_t*>(xml.data()), xml.size());
  const HttpRequest request = MakeRequest(
      "POST", address_.ObjectUrl(key, {{"uploadId", upload_id}}), body, "application/xml");
  // S3 answers 200 at once and may report a late failure in the body, as an <Error>.
  auto late_failure = [](const HttpResponse& response, std::string* cause) {
    if (IsCompleteMultipartUploadResult(response.body.view())) return false;
    *cause = Describe(response) + " without a CompleteMultipartUploadResult";
    return true;
  };
  HIGGINS_ASSIGN_OR_RETURN(HttpResponse response, Call(what, request, late_failure));
  if (!IsSuccess(response.status)) return Refused(what, response);
  return Status::OK();
}

Status S3ObjectStore::Abort(const std::string& key, const std::string& upload_id) {
  const std::string what = "DELETE " + key + " (AbortMultipartUpload " + upload_id + ")";
  HIGGINS_ASSIGN_OR_RETURN(
      HttpResponse response,
      Call(what,
           MakeRequest("DELETE", address_.ObjectUrl(key, {{"uploadId", upload_id}}), {}, "")));
  // 404 NoSuchUpload: completed or aborted already. 404 NoSuchBucket stays an error.
  const bool gone =
      response.status == 404 && ParseError(response.body.view()).code != "NoSuchBucket";
  if (IsSuccess(response.status) || gone) return Status::OK();
  return Refused(what, response);
}

Status S3ObjectStore::AbortMultipartUpload(const std::string& key, const std::string& upload_id) {
  if (key.empty() || upload_id.empty()) {
    return Status::InvalidArgument("s3 AbortMultipartUpload: empty key or upload id");
  }
  return Redact(Abort(key, upload_id));
}

Result<std::vector<MultipartUpload>> S3ObjectStore::ListMultipartUploads(
    const std::string& prefix) {
  const std::string what = "LIST UPLOADS " + prefix;
  std::vector<MultipartUpload> listed;
  std::string key_marker;
  std::string upload_id_marker;
  for (int page = 0;; ++page) {
    if (page == kMaxListPages) {
      return Status::Corruption("s3 " + what + ": more than " + std::to_string(kMaxListPages) +
                                " pages");
    }
    QueryParams query = {{"uploads", ""}, {"max-uploads", std::to_string(options_.list_page_size)}};
    if (!prefix.empty()) query.emplace_back("prefix", prefix);
    if (!key_marker.empty()) query.emplace_back("key-marker", key_marker);
    if (!upload_id_marker.empty()) query.emplace_back("upload-id-marker", upload_id_marker);
    HttpRequest request = MakeRequest("GET", address_.BucketUrl(query), {}, "");
    request.max_response_bytes = kMaxListBodyBytes;
    auto called = Call(what, request);
    if (!called.ok()) return Redact(called.status());
    if (!IsSuccess(called->status)) {
      if (called->status == 501 || ParseError(called->body.view()).code == "NotImplemented") {
        return Redact(Status::NotSupported("s3 " + what + ": " + Describe(*called) +
                                           " (the server does not implement "
                                           "ListMultipartUploads)"));
      }
      return Redact(Refused(what, *called));
    }
    auto parsed = ParseListMultipartUploads(called->body.view());
    if (!parsed.ok()) return Redact(parsed.status().WithContext("s3 " + what));
    UploadsPage& result = *parsed;
    for (MultipartUpload& upload : result.uploads) listed.push_back(std::move(upload));
    if (!result.truncated) break;
    if (result.next_key_marker == key_marker && result.next_upload_id_marker == upload_id_marker) {
      return Status::Corruption("s3 " + what + ": the server repeated its markers");
    }
    key_marker = std::move(result.next_key_marker);
    upload_id_marker = std::move(result.next_upload_id_marker);
  }
  return listed;
}

}  // namespace higgins::s3

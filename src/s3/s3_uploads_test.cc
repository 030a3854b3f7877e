// ListMultipartUploads and AbortMultipartUpload on the wire, against a scripted loopback
// server: pages followed by their markers, servers without the listing, refusals, odd answers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "s3/s3_client.h"
#include "s3/scripted_server_test.h"
#include "s3/testing/loopback_http_server.h"

namespace higgins::s3 {
namespace {

using std::chrono::milliseconds;
using testing::LoopbackHttpServer;
using testing::RecordedRequest;
using testing::Reply;
using testing::Response;

std::string ErrorXml(std::string_view code) {
  return "<?xml version=\"1.0\"?><Error><Code>" + std::string(code) +
         "</Code><Message>m</Message></Error>";
}

/// A ListMultipartUploadsResult of `uploads` (key, id); truncated when `next_key` is not empty.
std::string UploadsXml(const std::vector<MultipartUpload>& uploads, std::string_view next_key = {},
                       std::string_view next_id = {}) {
  std::string xml = "<?xml version=\"1.0\"?><ListMultipartUploadsResult><Bucket>b</Bucket>";
  for (const MultipartUpload& u : uploads) {
    xml += "<Upload><Key>" + u.key + "</Key><UploadId>" + u.upload_id + "</UploadId></Upload>";
  }
  if (next_key.empty())
    return xml + "<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>";
  return xml + "<IsTruncated>true</IsTruncated><NextKeyMarker>" + std::string(next_key) +
         "</NextKeyMarker><NextUploadIdMarker>" + std::string(next_id) +
         "</NextUploadIdMarker></ListMultipartUploadsResult>";
}

class UploadsTest : public ScriptedServerTest {
 protected:
  std::unique_ptr<ObjectStore> Store(uint32_t page_size = 1000) {
    S3Options o = ClientOptions("up-bucket", "AKIDUPLOADS", "uploads-secret");
    o.list_page_size = page_size;
    return Make(o);
  }

  std::vector<RecordedRequest> requests() const { return recorded(); }
};

TEST_F(UploadsTest, ListingFollowsBothMarkersAcrossPages) {
  Serve([](int n, const RecordedRequest&) {
    if (n == 0) return Reply{Response(200, UploadsXml({{"p/a", "1"}, {"p/b", "2"}}, "p/b", "2"))};
    if (n == 1)
      return Reply{Response(200, UploadsXml({{"p/b", "3"}, {"p/c d", "4"}}, "p/c d", "4"))};
    return Reply{Response(200, UploadsXml({{"p/e", "5"}}))};
  });
  auto store = Store(2);
  auto uploads = store->ListMultipartUploads("p/");
  ASSERT_TRUE(uploads.ok()) << uploads.status().ToString();
  const std::vector<MultipartUpload> want = {
      {"p/a", "1"}, {"p/b", "2"}, {"p/b", "3"}, {"p/c d", "4"}, {"p/e", "5"}};
  EXPECT_EQ(*uploads, want);
  const auto recorded = requests();
  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded[0].method, "GET");
  EXPECT_EQ(recorded[0].target, "/up-bucket?max-uploads=2&prefix=p%2F&uploads=");
  EXPECT_EQ(recorded[1].target,
            "/up-bucket?key-marker=p%2Fb&max-uploads=2&prefix=p%2F&upload-id-marker=2&uploads=");
  EXPECT_EQ(recorded[2].target,
            "/up-bucket?key-marker=p%2Fc%20d&max-uploads=2&prefix=p%2F&upload-id-marker=4&"
            "uploads=");
}

TEST_F(UploadsTest, AnEmptyPrefixListsTheWholeBucket) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(200, UploadsXml({}))}; });
  auto uploads = Store()->ListMultipartUploads("");
  ASSERT_TRUE(uploads.ok()) << uploads.status().ToString();
  EXPECT_TRUE(uploads->empty());
  EXPECT_EQ(requests()[0].target, "/up-bucket?max-uploads=1000&uploads=");
}

TEST_F(UploadsTest, AServerWithoutTheListingIsNotSupportedWithoutRetries) {
  for (const auto& [status, code] : std::vector<std::pair<int, std::string>>{
           {501, "NotImplemented"}, {501, ""}, {400, "NotImplemented"}}) {
    count_ = 0;
    Serve([status, code](int, const RecordedRequest&) {
      return Reply{Response(status, code.empty() ? std::string() : ErrorXml(code))};
    });
    auto uploads = Store()->ListMultipartUploads("p/");
    EXPECT_EQ(uploads.status().code(), StatusCode::kNotSupported) << uploads.status().ToString();
    EXPECT_NE(uploads.status().message().find("does not implement ListMultipartUploads"),
              std::string::npos);
    EXPECT_EQ(requests().size(), 1u) << status << " " << code;
  }
}

TEST_F(UploadsTest, OtherListingFailuresKeepTheirCodes) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(403, ErrorXml("AccessDenied"))}; });
  EXPECT_EQ(Store()->ListMultipartUploads("p/").status().code(), StatusCode::kInvalidArgument);
  Serve([](int, const RecordedRequest&) { return Reply{Response(503, ErrorXml("SlowDown"))}; });
  auto unreachable = Store()->ListMultipartUploads("p/");
  EXPECT_EQ(unreachable.status().code(), StatusCode::kIOError);
  EXPECT_NE(unreachable.status().message().find("after 3 attempts"), std::string::npos);
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(200,
                          "<ListBucketResult><IsTruncated>false</IsTruncated>"
                          "</ListBucketResult>")};
  });
  EXPECT_EQ(Store()->ListMultipartUploads("p/").status().code(), StatusCode::kCorruption);
}

TEST_F(UploadsTest, ARepeatedMarkerIsCorruptionNotALoop) {
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(200, UploadsXml({{"p/a", "1"}}, "p/a", "1"))};
  });
  auto uploads = Store()->ListMultipartUploads("p/");
  EXPECT_EQ(uploads.status().code(), StatusCode::kCorruption);
  EXPECT_NE(uploads.status().message().find("repeated its markers"), std::string::npos);
  EXPECT_EQ(requests().size(), 2u);
}

TEST_F(UploadsTest, AbortSendsDeleteWithTheUploadId) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(204)}; });
  EXPECT_TRUE(Store()->AbortMultipartUpload("p/a b", "id/1+=").ok());
  const auto recorded = requests();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].method, "DELETE");
  EXPECT_EQ(recorded[0].target, "/up-bucket/p/a%20b?uploadId=id%2F1%2B%3D");
}

TEST_F(UploadsTest, AbortOfAnUploadAlreadyGoneIsDone) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(404, ErrorXml("NoSuchUpload"))}; });
  EXPECT_TRUE(Store()->AbortMultipartUpload("p/a", "1").ok());
  EXPECT_EQ(requests().size(), 1u);
}

TEST_F(UploadsTest, AbortFailuresAreReported) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(404, ErrorXml("NoSuchBucket"))}; });
  EXPECT_EQ(Store()->AbortMultipartUpload("p/a", "1").code(), StatusCode::kInvalidArgument);
  Serve([](int, const RecordedRequest&) { return Reply{Response(403, ErrorXml("AccessDenied"))}; });
  const Status denied = Store()->AbortMultipartUpload("p/a", "1");
  EXPECT_EQ(denied.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(denied.message().find("AbortMultipartUpload"), std::string::npos) << denied.message();
  Serve([](int n, const RecordedRequest&) {
    return Reply{n < 2 ? Response(500, ErrorXml("InternalError")) : Response(204)};
  });
  count_ = 0;
  EXPECT_TRUE(Store()->AbortMultipartUpload("p/a", "1").ok());
  EXPECT_EQ(requests().size(), 3u);
}

}  // namespace
}  // namespace higgins::s3

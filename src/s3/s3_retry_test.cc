// Retries, error mapping and the client's checks of answers, against a scripted loopback
// server: transient failures then success, failures that last, refusals, odd answers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "s3/s3_client.h"
#include "s3/s3_test_util.h"
#include "s3/scripted_server_test.h"
#include "s3/testing/loopback_http_server.h"

namespace higgins::s3 {
namespace {

using std::chrono::milliseconds;
using testing::LoopbackHttpServer;
using testing::RecordedRequest;
using testing::Reply;
using testing::Response;

constexpr char kSecret[] = "Retry/Secret+Key0123456789abcdefghijklmn";

std::string ErrorXml(std::string_view code, std::string_view message) {
  return "<?xml version=\"1.0\"?><Error><Code>" + std::string(code) + "</Code><Message>" +
         std::string(message) + "</Message></Error>";
}

class RetryTest : public ScriptedServerTest {
 protected:
  std::unique_ptr<ObjectStore> Store(int max_attempts = 3) {
    S3Options o = ClientOptions("retry-bucket", "AKIDRETRY", kSecret);
    o.max_attempts = max_attempts;
    o.request_timeout = milliseconds(300);
    o.multipart_threshold = 64;
    return Make(o);
  }

  size_t requests() const { return recorded().size(); }
};

void ExpectNoSecret(const Status& status) {
  EXPECT_EQ(status.message().find(kSecret), std::string::npos) << status.message();
}

TEST_F(RetryTest, ServerErrorTwiceThenSuccess) {
  Serve([](int n, const RecordedRequest&) {
    if (n < 2) return Reply{Response(500, ErrorXml("InternalError", "We encountered an error"))};
    return Reply{Response(200)};
  });
  auto store = Store();
  EXPECT_TRUE(store->Put("k", Bytes("v")).ok());
  EXPECT_EQ(requests(), 3u);
}

TEST_F(RetryTest, ServerErrorEveryTimeIsIOErrorNamingTheAttempts) {
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(500, ErrorXml("InternalError", "We encountered an internal error"))};
  });
  auto store = Store(3);
  const Status status = store->Put("dir/obj", Bytes("v"));
  EXPECT_EQ(status.code(), StatusCode::kIOError);
  EXPECT_EQ(status.message(),
            "s3 PUT dir/obj: HTTP 500 InternalError: We encountered an internal error after 3 "
            "attempts");
  EXPECT_EQ(requests(), 3u);
  ExpectNoSecret(status);
}

TEST_F(RetryTest, ThrottlingAndRequestTimeoutAreRetried) {
  Serve([](int n, const RecordedRequest&) {
    if (n == 0) return Reply{Response(429)};
    if (n == 1)
      return Reply{Response(503, ErrorXml("SlowDown", "Please reduce your request rate."))};
    if (n == 2) return Reply{Response(400, ErrorXml("RequestTimeout", "Idle too long"))};
    return Reply{Response(204)};
  });
  auto store = Store(4);
  EXPECT_TRUE(store->Delete("k").ok());
  EXPECT_EQ(requests(), 4u);
}

TEST_F(RetryTest, DroppedConnectionIsRetried) {
  Serve([](int n, const RecordedRequest&) {
    return n == 0 ? Reply{""} : Reply{Response(206, "abc")};
  });
  auto store = Store();
  auto got = store->Get("k", 0, 3);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->view(), "abc");
  EXPECT_EQ(requests(), 2u);
}

TEST_F(RetryTest, SlowServerTimesOutAfterTheAttempts) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(200), milliseconds(2000)}; });
  auto store = Store(2);
  const auto start = std::chrono::steady_clock::now();
  const Status status = store->Put("slow", Bytes("v"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), StatusCode::kIOError);
  EXPECT_NE(status.message().find("s3 PUT slow: curl: "), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("after 2 attempts"), std::string::npos) << status.message();
  EXPECT_LT(elapsed, milliseconds(1500));
}

TEST_F(RetryTest, RefusalIsInvalidArgumentAndNotRetried) {
  // What AWS answers to a wrong secret (s3rver does not check SigV4 signatures). The server
  // echoes the secret, which must not reach the Status.
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(403, ErrorXml("SignatureDoesNotMatch",
                                        "The request signature we calculated does not match " +
                                            std::string(kSecret)))};
  });
  auto store = Store();
  const Status status = store->Put("k", Bytes("v"));
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("HTTP 403 SignatureDoesNotMatch"), std::string::npos);
  EXPECT_NE(status.message().find("<secret>"), std::string::npos) << status.message();
  ExpectNoSecret(status);
  EXPECT_EQ(requests(), 1u);
}

TEST_F(RetryTest, MissingBucketIsInvalidArgumentNotNotFound) {
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(404, ErrorXml("NoSuchBucket", "The specified bucket does not exist"))};
  });
  auto store = Store();
  EXPECT_EQ(store->Get("k", 0, 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store->Delete("k").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store->List("").status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RetryTest, ShortRangeIsOutOfRangeAndLongOneIsIOError) {
  Serve([](int n, const RecordedRequest&) {
    return Reply{Response(206, n == 0 ? "abc" : "0123456789")};
  });
  auto store = Store();
  EXPECT_EQ(store->Get("k", 10, 5).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(store->Get("k", 10, 5).status().code(), StatusCode::kIOError);
}

TEST_F(RetryTest, ServerIgnoringRangeAtAnOffsetIsIOError) {
  Serve([](int, const RecordedRequest&) { return Reply{Response(200, "0123456789")}; });
  auto store = Store();
  EXPECT_EQ(store->Get("k", 2, 3).status().code(), StatusCode::kIOError);
  auto whole = store->Get("k", 0, 10);  // a 200 with exactly the bytes asked for is fine
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->view(), "0123456789");
}

TEST_F(RetryTest, GarbageListingIsCorruption) {
  Serve([](int, const RecordedRequest&) {
    return Reply{Response(200, "<html><body>proxy error</body></html>")};
  });
  auto store = Store();
  const auto listed = store->List("p/");
  EXPECT_EQ(listed.status().code(), StatusCode::kCorruption);
  EXPECT_NE(listed.status().message().find("s3 LIST p/"), std::string::npos);
}

TEST_F(RetryTest, HugeErrorBodyIsResourceExhaustedNotRetried) {
  Serve(
      [](int, const RecordedRequest&) { return Reply{Response(500, std::string(1 << 20, 'x'))}; });
  auto store = Store();
  EXPECT_EQ(store->Delete("k").code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(requests(), 1u);
}

TEST_F(RetryTest, FailedPartAbortsTheUpload) {
  Serve([](int, const RecordedRequest& r) {
    if (r.method == "POST") {
      return Reply{Response(200,
                            "<InitiateMultipartUploadResult><UploadId>u1</UploadId>"
                            "</InitiateMultipartUploadResult>")};
    }
    if (r.method == "PUT") return Reply{Response(400, ErrorXml("EntityTooSmall", "too small"))};
    return Reply{Response(204)};
  });
  auto store = Store();
  const Status status = store->Put("big", Bytes(std::string(100, 'b')));
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("UploadPart 1 of 1"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("the upload was aborted"), std::string::npos);
  const auto recorded = server_->requests();
  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded[2].method, "DELETE");
  EXPECT_EQ(recorded[2].target, "/retry-bucket/big?uploadId=u1");
}

TEST_F(RetryTest, CompleteAnsweringErrorWith200IsRetried) {
  Serve([](int n, const RecordedRequest& r) {
    if (r.method == "PUT") return Reply{Response(200, "", {"ETag: \"e1\""})};
    if (r.target.find("uploads=") != std::string::npos) {
      return Reply{Response(200,
                            "<InitiateMultipartUploadResult><UploadId>u2</UploadId>"
                            "</InitiateMultipartUploadResult>")};
    }
    if (n == 2) return Reply{Response(200, ErrorXml("InternalError", "late failure"))};
    return Reply{Response(200,
                          "<CompleteMultipartUploadResult><ETag>x</ETag>"
                          "</CompleteMultipartUploadResult>")};
  });
  auto store = Store();
  EXPECT_TRUE(store->Put("big", Bytes(std::string(100, 'b'))).ok());
  EXPECT_EQ(requests(), 4u);  // create, part, complete (error in a 200), complete
}

TEST_F(RetryTest, PartWithoutEtagFails) {
  Serve([](int, const RecordedRequest& r) {
    if (r.method == "POST") {
      return Reply{Response(200,
                            "<InitiateMultipartUploadResult><UploadId>u3</UploadId>"
                            "</InitiateMultipartUploadResult>")};
    }
    if (r.method == "PUT") return Reply{Response(200)};
    return Reply{Response(204)};
  });
  auto store = Store();
  const Status status = store->Put("big", Bytes(std::string(100, 'b')));
  EXPECT_EQ(status.code(), StatusCode::kIOError);
  EXPECT_NE(status.message().find("no ETag"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace higgins::s3

// libcurl's SigV4 signatures, as sent on the wire, against botocore's for the same logical
// requests (testdata/sign_request.py). A loopback server records the raw requests.
#include <curl/curlver.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "s3/http_client.h"
#include "s3/testing/loopback_http_server.h"
#include "s3/s3_address.h"
#include "s3/s3_client.h"
#include "s3/s3_test_util.h"

namespace higgins::s3 {
namespace {

using testing::LoopbackHttpServer;
using testing::RecordedRequest;
using testing::Reply;
using testing::Response;

constexpr char kAccessKey[] = "AKIDEXAMPLE";
constexpr char kSecret[] = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
constexpr char kRegion[] = "eu-west-3";
constexpr char kBucket[] = "sig-bucket";
constexpr char kUploadId[] = "upload/id+1=";
constexpr char kToken[] = "next/token+==";

/// A request as a caller of the S3 API sees it, before any encoding.
struct Logical {
  std::string method;
  bool has_key = true;
  std::string key;
  QueryParams params;
  std::map<std::string, std::string> headers;
  std::string body;
};

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", u);
      out += escaped;
    } else {
      out += c;  // UTF-8 passes through
    }
  }
  return out + "\"";
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kHex[static_cast<unsigned char>(c) >> 4];
    out += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

std::string SpecJson(const Logical& l, const std::string& host, const std::string& bucket,
                     const std::string& date) {
  std::string params = "[";
  for (const auto& [name, value] : l.params) {
    if (params.size() > 1) params += ",";
    params += "[" + JsonString(name) + "," + JsonString(value) + "]";
  }
  params += "]";
  std::string headers = "{";
  for (const auto& [name, value] : l.headers) {
    if (headers.size() > 1) headers += ",";
    headers += JsonString(name) + ":" + JsonString(value);
  }
  headers += "}";
  return "{\"host\":" + JsonString(host) + ",\"bucket\":" + JsonString(bucket) +
         ",\"key\":" + (l.has_key ? JsonString(l.key) : "null") + ",\"params\":" + params +
         ",\"method\":" + JsonString(l.method) + ",\"headers\":" + headers +
         ",\"body_hex\":" + JsonString(Hex(l.body)) + ",\"date\":" + JsonString(date) +
         ",\"access_key\":" + JsonString(kAccessKey) + ",\"secret_key\":" + JsonString(kSecret) +
         ",\"region\":" + JsonString(kRegion) + "}";
}

/// botocore's Authorization value for each spec, one per line. Fails the test (never skips)
/// when Debian's botocore cannot be run: CI installs python3-botocore.
std::vector<std::string> BotocoreAuthorizations(const std::vector<std::string>& specs) {
  const std::string script = std::string(HIGGINS_SOURCE_DIR) + "/src/s3/testdata/sign_request.py";
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("higgins-sigv4-" + std::to_string(getpid()) + ".json"))
                               .string();
  {
    std::ofstream out(path);
    out << "[";
    for (size_t i = 0; i < specs.size(); ++i) out << (i ? "," : "") << specs[i];
    out << "]";
  }
  const std::string command = "/usr/bin/python3 '" + script + "' '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  if (pipe != nullptr) {
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), pipe)) > 0) output.append(chunk, n);
  }
  const int rc = pipe != nullptr ? pclose(pipe) : -1;
  std::filesystem::remove(path);
  EXPECT_EQ(rc, 0) << "botocore signer failed (needs /usr/bin/python3 with python3-botocore): "
                   << output;
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = output.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(output.substr(start, end - start));
  }
  return lines;
}

/// Answers like S3 would, enough for every operation of the client.
Reply Answer(const RecordedRequest& r) {
  const std::string& t = r.target;
  if (r.method == "POST" && t.find("uploads=") != std::string::npos) {
    return {Response(200, "<InitiateMultipartUploadResult><UploadId>" + std::string(kUploadId) +
                              "</UploadId></InitiateMultipartUploadResult>")};
  }
  if (r.method == "POST") {
    return {Response(200, "<CompleteMultipartUploadResult/>")};
  }
  if (r.method == "PUT") return {Response(200, "", {"ETag: \"etag-1\""})};
  if (r.method == "GET" && t.find("uploads=") != std::string::npos) {
    if (t.find("key-marker=") == std::string::npos) {
      return {Response(200, "<ListMultipartUploadsResult><Upload><Key>p/1</Key><UploadId>" +
                                std::string(kUploadId) +
                                "</UploadId></Upload><IsTruncated>true</IsTruncated>"
                                "<NextKeyMarker>p/1 x=y</NextKeyMarker><NextUploadIdMarker>" +
                                std::string(kUploadId) +
                                "</NextUploadIdMarker></ListMultipartUploadsResult>")};
    }
    return {Response(200,
                     "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated>"
                     "</ListMultipartUploadsResult>")};
  }
  if (r.method == "DELETE") return {Response(204)};
  if (t.find("list-type=2") != std::string::npos) {
    if (t.find("continuation-token=") == std::string::npos) {
      return {Response(200,
                       "<ListBucketResult><Contents><Key>p/1</Key><Size>1</Size></Contents>"
                       "<IsTruncated>true</IsTruncated><NextContinuationToken>" +
                           std::string(kToken) + "</NextContinuationToken></ListBucketResult>")};
    }
    return {Response(200,
                     "<ListBucketResult><Contents><Key>p/2</Key><Size>2</Size></Contents>"
                     "<IsTruncated>false</IsTruncated></ListBucketResult>")};
  }
  // GET with "Range: bytes=a-b": b - a + 1 bytes.
  const std::string range = r.Header("Range");
  const size_t dash = range.find('-');
  const uint64_t first = std::stoull(range.substr(6, dash - 6));
  const uint64_t last = std::stoull(range.substr(dash + 1));
  return {Response(206, std::string(last - first + 1, 'x'))};
}

class SignatureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = LoopbackHttpServer::Start(Answer);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = *std::move(server);
  }

  std::unique_ptr<ObjectStore> Store(bool path_style) {
    S3Options o;
    o.endpoint =
        path_style ? server_->endpoint() : "http://localhost:" + std::to_string(server_->port());
    o.region = kRegion;
    o.bucket = kBucket;
    o.path_style = path_style;
    o.access_key_id = kAccessKey;
    o.secret_access_key = kSecret;
    o.multipart_threshold = 64;  // 64 bytes and more go as one-part multipart uploads
    o.max_attempts = 1;
    auto store = MakeS3ObjectStore(o);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? *std::move(store) : nullptr;
  }

  /// Checks every recorded request against the logical requests, in order.
  void ExpectSignedLikeBotocore(const std::vector<Logical>& expected, bool path_style) {
    const std::vector<RecordedRequest> recorded = server_->requests();
    ASSERT_EQ(recorded.size(), expected.size());
    const std::string authority = "localhost:" + std::to_string(server_->port());
    const std::string host =
        path_style ? "127.0.0.1:" + std::to_string(server_->port()) : kBucket + ("." + authority);
    std::vector<std::string> specs;
    for (size_t i = 0; i < recorded.size(); ++i) {
      const RecordedRequest& r = recorded[i];
      ASSERT_EQ(r.HeaderValues("X-Amz-Date").size(), 1u) << r.target;
      ASSERT_EQ(r.HeaderValues("Authorization").size(), 1u) << r.target;
      EXPECT_EQ(r.method, expected[i].method);
      EXPECT_EQ(r.body, expected[i].body);
      EXPECT_EQ(r.Header("Host"), host);
      specs.push_back(
          SpecJson(expected[i], host, path_style ? kBucket : "", r.Header("X-Amz-Date")));
    }
    const std::vector<std::string> want = BotocoreAuthorizations(specs);
    ASSERT_EQ(want.size(), recorded.size());
    for (size_t i = 0; i < recorded.size(); ++i) {
      EXPECT_EQ(recorded[i].Header("Authorization"), want[i])
          << recorded[i].method << " " << recorded[i].target;
    }
  }

  std::unique_ptr<LoopbackHttpServer> server_;
};

const std::vector<std::string>& AwkwardKeys() {
  static const std::vector<std::string> keys = {
      "plain/key.txt",
      "with space/and=equals+plus*star:colon",
      "unicode/\xC3\xA9t\xC3\xA9/\xF0\x9F\x98\x80",
      "dots/../x/./y",
      "sym~_-.!'()&$@,;%[]#?",
  };
  return keys;
}

TEST_F(SignatureTest, BotocoreReproducesAwsDocumentedExample) {
  const std::string command = "/usr/bin/python3 '" + std::string(HIGGINS_SOURCE_DIR) +
                              "/src/s3/testdata/sign_request.py' --self-test >/dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << "needs /usr/bin/python3 with python3-botocore";
}

TEST_F(SignatureTest, PutGetDeleteOfAwkwardKeys) {
  auto store = Store(true);
  ASSERT_NE(store, nullptr);
  std::vector<Logical> expected;
  for (const std::string& key : AwkwardKeys()) {
    ASSERT_TRUE(store->Put(key, Bytes("small body")).ok());
    auto got = store->Get(key, 3, 5);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(got->size(), 5u);
    ASSERT_TRUE(store->Delete(key).ok());
    expected.push_back(
        {"PUT", true, key, {}, {{"Content-Type", "application/octet-stream"}}, "small body"});
    expected.push_back({"GET", true, key, {}, {{"Range", "bytes=3-7"}}, ""});
    expected.push_back({"DELETE", true, key, {}, {}, ""});
  }
  ExpectSignedLikeBotocore(expected, true);
}

TEST_F(SignatureTest, ListWithPrefixAndContinuationToken) {
  auto store = Store(true);
  ASSERT_NE(store, nullptr);
  auto listed = store->List("p/a b=c+d");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->size(), 2u);
  const QueryParams first = {{"list-type", "2"}, {"max-keys", "1000"}, {"prefix", "p/a b=c+d"}};
  QueryParams second = first;
  second.emplace_back("continuation-token", kToken);
  ExpectSignedLikeBotocore({{"GET", false, "", first, {}, ""}, {"GET", false, "", second, {}, ""}},
                           true);
  EXPECT_EQ(server_->requests()[1].target,
            "/sig-bucket?continuation-token=next%2Ftoken%2B%3D%3D&list-type=2&max-keys=1000&"
            "prefix=p%2Fa%20b%3Dc%2Bd");
}

TEST_F(SignatureTest, MultipartUploadsQueries) {
  auto store = Store(true);
  ASSERT_NE(store, nullptr);
  const std::string key = "multi/part=1+2";
  const std::string body(100, 'm');
  ASSERT_TRUE(store->Put(key, Bytes(body)).ok());
  const std::string complete =
      "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Part>"
      "<PartNumber>1</PartNumber><ETag>&quot;etag-1&quot;</ETag></Part></CompleteMultipartUpload>";
  ExpectSignedLikeBotocore(
      {{"POST", true, key, {{"uploads", ""}}, {{"Content-Type", "application/octet-stream"}}, ""},
       {"PUT",
        true,
        key,
        {{"partNumber", "1"}, {"uploadId", kUploadId}},
        {{"Content-Type", "application/octet-stream"}},
        body},
       {"POST",
        true,
        key,
        {{"uploadId", kUploadId}},
        {{"Content-Type", "application/xml"}},
        complete}},
      true);
  EXPECT_EQ(server_->requests()[0].target, "/sig-bucket/multi/part%3D1%2B2?uploads=");
}

TEST_F(SignatureTest, ListAndAbortMultipartUploads) {
  for (const bool path_style : {true, false}) {
    SetUp();
    auto store = Store(path_style);
    ASSERT_NE(store, nullptr);
    auto uploads = store->ListMultipartUploads("p/a b=c+d");
    ASSERT_TRUE(uploads.ok()) << uploads.status().ToString();
    ASSERT_EQ(uploads->size(), 1u);
    ASSERT_TRUE(store->AbortMultipartUpload((*uploads)[0].key, (*uploads)[0].upload_id).ok());
    const QueryParams first = {{"uploads", ""}, {"max-uploads", "1000"}, {"prefix", "p/a b=c+d"}};
    QueryParams second = first;
    second.emplace_back("key-marker", "p/1 x=y");
    second.emplace_back("upload-id-marker", kUploadId);
    ExpectSignedLikeBotocore({{"GET", false, "", first, {}, ""},
                              {"GET", false, "", second, {}, ""},
                              {"DELETE", true, "p/1", {{"uploadId", kUploadId}}, {}, ""}},
                             path_style);
  }
  EXPECT_EQ(server_->requests()[1].target,
            "/?key-marker=p%2F1%20x%3Dy&max-uploads=1000&prefix=p%2Fa%20b%3Dc%2Bd&"
            "upload-id-marker=upload%2Fid%2B1%3D&uploads=");
}

TEST_F(SignatureTest, VirtualHostedStyle) {
  auto store = Store(false);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put("v/a b", Bytes("hosted")).ok());
  auto listed = store->List("");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  const QueryParams first = {{"list-type", "2"}, {"max-keys", "1000"}};
  QueryParams second = first;
  second.emplace_back("continuation-token", kToken);
  ExpectSignedLikeBotocore(
      {{"PUT", true, "v/a b", {}, {{"Content-Type", "application/octet-stream"}}, "hosted"},
       {"GET", false, "", first, {}, ""},
       {"GET", false, "", second, {}, ""}},
      false);
  EXPECT_EQ(server_->requests()[0].target, "/v/a%20b");
}

TEST_F(SignatureTest, PayloadHashHeaderIsTheBodysSha256) {
  auto store = Store(true);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put("k", Bytes("abc")).ok());
  ASSERT_TRUE(store->Delete("k").ok());
  const auto recorded = server_->requests();
  ASSERT_EQ(recorded.size(), 2u);
  EXPECT_EQ(recorded[0].Header("x-amz-content-sha256"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(recorded[1].Header("x-amz-content-sha256"),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  for (const auto& r : recorded) {
    EXPECT_EQ(r.Header("Authorization").find(kSecret), std::string::npos);
  }
  // libcurl signs host, its x-amz-date and every header the client adds.
  EXPECT_NE(recorded[0]
                .Header("Authorization")
                .find("SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,"),
            std::string::npos);
  EXPECT_NE(recorded[1]
                .Header("Authorization")
                .find("SignedHeaders=host;x-amz-content-sha256;x-amz-date,"),
            std::string::npos);
}

// Why the client leaves X-Amz-Date to libcurl: 7.88 signs with a caller's X-Amz-Date but also
// sends its own copy, and servers read the two as one "d, d" value.
TEST_F(SignatureTest, CallerAmzDateIsSignedButSentTwiceByLibcurl788) {
  HttpClient client({kRegion, kAccessKey, kSecret});
  HttpRequest request;
  request.method = "GET";
  request.url = server_->endpoint() + "/b/k";
  request.headers = {"X-Amz-Date: 20130524T000000Z", "Range: bytes=0-0",
                     "x-amz-content-sha256: "
                     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"};
  auto response = client.Perform(request);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  const auto recorded = server_->requests();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_NE(recorded[0].Header("Authorization").find("/20130524/eu-west-3/s3/aws4_request"),
            std::string::npos);
  if (LIBCURL_VERSION_NUM <= 0x075801) {
    EXPECT_EQ(recorded[0].HeaderValues("X-Amz-Date").size(), 2u);
  }
}

}  // namespace
}  // namespace higgins::s3

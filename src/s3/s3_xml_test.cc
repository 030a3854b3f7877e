// The hand-written S3 XML readers: real documents, entities, and garbage.
#include "s3/s3_xml.h"

#include <gtest/gtest.h>

#include <random>

namespace higgins::s3 {
namespace {

constexpr char kPage[] =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name>
<Prefix>p/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
<Contents><Key>p/a&amp;b &lt;&gt;&quot;&apos;</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>
<ETag>&quot;abc&quot;</ETag><Size>12</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>p/&#233;t&#xE9; &#x1F600;</Key><Size>0</Size><Owner><ID>x</ID></Owner></Contents>
<NextContinuationToken>tok/en+=</NextContinuationToken></ListBucketResult>)";

TEST(ListObjectsV2Test, ParsesKeysSizesAndToken) {
  auto page = ParseListObjectsV2(kPage);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0], (ObjectInfo{"p/a&b <>\"'", 12}));
  EXPECT_EQ(page->objects[1], (ObjectInfo{"p/\xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80", 0}));
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_token, "tok/en+=");
}

TEST(ListObjectsV2Test, EmptyLastPage) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><Name>b</Name><Prefix/><KeyCount>0</KeyCount>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_TRUE(page->objects.empty());
  EXPECT_FALSE(page->truncated);
}

TEST(ListObjectsV2Test, KeyCountIsNotMistakenForKey) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><Contents><KeyCount>1</KeyCount><Size>1</Size></Contents>"
      "</ListBucketResult>");
  EXPECT_EQ(page.status().code(), StatusCode::kCorruption);
}

TEST(ListObjectsV2Test, MalformedDocumentsAreCorruption) {
  for (const char* bad : {
           "",
           "<html>Bad gateway</html>",
           "<ListBucketResult>",
           "<ListBucketResult><Contents><Key>a</Key></Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>a</Key><Size>-1</Size></Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>a</Key><Size>99999999999999999999999</Size>"
           "</Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>a&bogus;</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           "<ListBucketResult><Contents><Key>a&#0;</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           "<ListBucketResult><Contents><Key>a&#xD800;</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           "<ListBucketResult><Contents><Key>a&amp</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           "<ListBucketResult><Contents><Key>a</Key><Size>1</Size></Contents>",
           "<ListBucketResult><IsTruncated>yes</IsTruncated></ListBucketResult>",
           "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
           "<ListBucketResult><Contents><Key",
       }) {
    EXPECT_EQ(ParseListObjectsV2(bad).status().code(), StatusCode::kCorruption) << bad;
  }
}

TEST(ListObjectsV2Test, RandomBytesNeverCrash) {
  std::mt19937 rng(7);
  const std::string alphabet = "<>/&;#x ListBucketResultContentsKeySizeIsTruncated0123456789";
  for (int round = 0; round < 20000; ++round) {
    std::string doc;
    const int n = static_cast<int>(rng() % 120);
    for (int i = 0; i < n; ++i) doc.push_back(alphabet[rng() % alphabet.size()]);
    if (round % 3 == 0) doc = "<ListBucketResult>" + doc;
    auto page = ParseListObjectsV2(doc);
    (void)page;
    auto id = ParseUploadId(doc);
    (void)id;
    (void)ParseError(doc);
  }
}

constexpr char kUploadsPage[] =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket>
<KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><NextKeyMarker>p/b&amp;c</NextKeyMarker>
<NextUploadIdMarker>id/2+=</NextUploadIdMarker><Prefix>p/</Prefix><MaxUploads>2</MaxUploads>
<IsTruncated>true</IsTruncated>
<Upload><Key>p/a</Key><UploadId>id-1</UploadId><Initiator><ID>x</ID><DisplayName>d</DisplayName>
</Initiator><Owner><ID>x</ID></Owner><StorageClass>STANDARD</StorageClass>
<Initiated>2024-01-01T00:00:00.000Z</Initiated></Upload>
<Upload><UploadId>id/2+=</UploadId><Key>p/b&amp;c &#xE9;</Key></Upload>
</ListMultipartUploadsResult>)";

TEST(ListMultipartUploadsTest, ParsesUploadsAndMarkers) {
  auto page = ParseListMultipartUploads(kUploadsPage);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->uploads.size(), 2u);
  EXPECT_EQ(page->uploads[0], (MultipartUpload{"p/a", "id-1"}));
  EXPECT_EQ(page->uploads[1], (MultipartUpload{"p/b&c \xC3\xA9", "id/2+="}));
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_key_marker, "p/b&c");
  EXPECT_EQ(page->next_upload_id_marker, "id/2+=");
}

TEST(ListMultipartUploadsTest, NoUploadsLastPage) {
  auto page = ParseListMultipartUploads(
      "<ListMultipartUploadsResult><Bucket>b</Bucket><KeyMarker/><UploadIdMarker/>"
      "<NextKeyMarker/><NextUploadIdMarker/><MaxUploads>1000</MaxUploads>"
      "<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_TRUE(page->uploads.empty());
  EXPECT_FALSE(page->truncated);
}

TEST(ListMultipartUploadsTest, UploadIdMarkerIsNotMistakenForAnUpload) {
  auto page = ParseListMultipartUploads(
      "<ListMultipartUploadsResult><UploadIdMarker>m</UploadIdMarker><IsTruncated>false"
      "</IsTruncated></ListMultipartUploadsResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_TRUE(page->uploads.empty());
}

TEST(ListMultipartUploadsTest, MalformedDocumentsAreCorruption) {
  for (const char* bad : {
           "",
           "<html>Bad gateway</html>",
           "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>",
           "<ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key>a</Key></Upload></ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><UploadId>u</UploadId></Upload>"
           "</ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key></Key><UploadId>u</UploadId></Upload>"
           "</ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key>a</Key><UploadId/></Upload>"
           "</ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key>a&bogus;</Key><UploadId>u</UploadId>"
           "</Upload></ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key>a</Key><UploadId>u</UploadId>"
           "</ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><IsTruncated>1</IsTruncated></ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated>"
           "<NextUploadIdMarker>u</NextUploadIdMarker></ListMultipartUploadsResult>",
           "<ListMultipartUploadsResult><Upload><Key",
       }) {
    EXPECT_EQ(ParseListMultipartUploads(bad).status().code(), StatusCode::kCorruption) << bad;
  }
}

TEST(ListMultipartUploadsTest, RandomBytesNeverCrash) {
  std::mt19937 rng(11);
  const std::string alphabet =
      "<>/&;#x ListMultipartUploadsResultUploadIdKeyNextMarkerIsTruncatedtruefalse0123456789";
  for (int round = 0; round < 20000; ++round) {
    std::string doc;
    const int n = static_cast<int>(rng() % 160);
    for (int i = 0; i < n; ++i) doc.push_back(alphabet[rng() % alphabet.size()]);
    if (round % 3 == 0) doc = "<ListMultipartUploadsResult>" + doc;
    if (round % 5 == 0) doc += "</ListMultipartUploadsResult>";
    auto page = ParseListMultipartUploads(doc);
    if (page.ok()) {
      for (const MultipartUpload& upload : page->uploads) {
        EXPECT_FALSE(upload.key.empty());
        EXPECT_FALSE(upload.upload_id.empty());
      }
    }
  }
}

TEST(UploadIdTest, ParsesAndRefusesMissing) {
  auto id = ParseUploadId(
      "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
      "<UploadId>VXBsb2FkIElE&amp;x</UploadId></InitiateMultipartUploadResult>");
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, "VXBsb2FkIElE&x");
  EXPECT_EQ(ParseUploadId("<InitiateMultipartUploadResult/>").status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(ParseUploadId("<InitiateMultipartUploadResult><UploadId></UploadId>"
                          "</InitiateMultipartUploadResult>")
                .status()
                .code(),
            StatusCode::kCorruption);
}

TEST(ErrorTest, CodeAndMessage) {
  const S3Error e = ParseError(
      "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The key &lt;k&gt; does not "
      "exist</Message><Key>k</Key></Error>");
  EXPECT_EQ(e.code, "NoSuchKey");
  EXPECT_EQ(e.message, "The key <k> does not exist");
  EXPECT_TRUE(ParseError("not xml").code.empty());
}

TEST(CompleteMultipartUploadTest, BodyListsPartsInOrder) {
  EXPECT_EQ(CompleteMultipartUploadXml({"\"a\"", "\"b&c\""}),
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            "<Part><PartNumber>1</PartNumber><ETag>&quot;a&quot;</ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>&quot;b&amp;c&quot;</ETag></Part>"
            "</CompleteMultipartUpload>");
  EXPECT_TRUE(IsCompleteMultipartUploadResult(
      "<CompleteMultipartUploadResult><ETag>x</ETag></CompleteMultipartUploadResult>"));
  EXPECT_FALSE(IsCompleteMultipartUploadResult("<Error><Code>InternalError</Code></Error>"));
}

}  // namespace
}  // namespace higgins::s3

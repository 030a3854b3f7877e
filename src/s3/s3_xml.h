#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "s3/object_store.h"

namespace higgins::s3 {

// The few S3 XML documents the client reads and writes, by hand (sans-I/O, no XML library).
// Readers find elements by exact name (`<Key>` never matches `<KeyCount>`), accept attributes and
// self-closing empty elements, decode the five predefined entities and numeric character
// references, and answer Corruption for anything else malformed: they never crash and never read
// past the input. Elements of the same name are assumed not to nest (true of these documents).

/// One page of a ListObjectsV2 answer (<ListBucketResult>).
struct ListPage {
  std::vector<ObjectInfo> objects;  // each <Contents>: <Key> and <Size>, in document order
  bool truncated = false;           // <IsTruncated>true</IsTruncated>
  std::string next_token;           // <NextContinuationToken>, non-empty when truncated
};

/// Errors: Corruption when the root is not ListBucketResult, a <Contents> lacks a Key or a
/// numeric Size, IsTruncated is not true/false, or a truncated page has no continuation token.
Result<ListPage> ParseListObjectsV2(std::string_view xml);

/// One page of a ListMultipartUploads answer (<ListMultipartUploadsResult>).
struct UploadsPage {
  std::vector<MultipartUpload> uploads;  // each <Upload>: <Key> and <UploadId>, in document order
  bool truncated = false;                // <IsTruncated>true</IsTruncated>
  std::string next_key_marker;           // <NextKeyMarker>, non-empty when truncated
  std::string next_upload_id_marker;     // <NextUploadIdMarker>, may be empty
};

/// Errors: Corruption when the root is not ListMultipartUploadsResult, an <Upload> lacks a
/// non-empty Key or UploadId, IsTruncated is not true/false, or a truncated page has no
/// NextKeyMarker.
Result<UploadsPage> ParseListMultipartUploads(std::string_view xml);

/// The <UploadId> of an <InitiateMultipartUploadResult>. Errors: Corruption when absent or empty.
Result<std::string> ParseUploadId(std::string_view xml);

/// Whether `xml` holds a <CompleteMultipartUploadResult> (S3 may answer 200 with an <Error>).
bool IsCompleteMultipartUploadResult(std::string_view xml);

/// The <Code> and <Message> of an S3 <Error> document; both empty when there is none or it does
/// not parse (error bodies are informative only).
struct S3Error {
  std::string code;
  std::string message;
};
S3Error ParseError(std::string_view xml);

/// The body of CompleteMultipartUpload: parts 1..N with their ETags (as the server sent them,
/// quotes included), escaped.
std::string CompleteMultipartUploadXml(const std::vector<std::string>& etags);

/// Replaces & < > " ' by entities.
std::string XmlEscape(std::string_view text);

/// Decodes entities (&amp; &lt; &gt; &quot; &apos; &#N; &#xH;) into UTF-8. Errors: Corruption on
/// an unknown or unterminated entity or a code point that is not a Unicode scalar value.
Result<std::string> XmlUnescape(std::string_view text);

}  // namespace higgins::s3

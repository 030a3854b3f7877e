// Hand-written extraction of the S3 XML fields the client needs (sans-I/O).
#include "s3/s3_xml.h"

#include <charconv>

namespace higgins::s3 {
namespace {

bool IsXmlSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// One element found by FindElement: its inner text (raw, undecoded) and where scanning resumes.
struct Element {
  bool found = false;
  std::string_view inner;
  size_t end = 0;
};

/// The first element named `name` starting at or after `from`. Corruption when its start tag or
/// its end tag is unterminated.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (haystack, needle, pos) as find
Result<Element> FindElement(std::string_view xml, std::string_view name, size_t from) {
  const std::string open = "<" + std::string(name);
  const std::string close = "</" + std::string(name);
  size_t pos = from;
  while (true) {
    pos = xml.find(open, pos);
    if (pos == std::string_view::npos) return Element{};
    const size_t after = pos + open.size();
    if (after >= xml.size()) return Status::Corruption("xml: unterminated <" + std::string(name));
    const char next = xml[after];
    if (next == '>' || next == '/' || IsXmlSpace(next)) break;
    pos = after;  // a longer name such as <KeyCount> when looking for <Key>
  }
  const size_t tag_end = xml.find('>', pos);
  if (tag_end == std::string_view::npos) {
    return Status::Corruption("xml: unterminated start tag <" + std::string(name));
  }
  if (xml[tag_end - 1] == '/') return Element{true, {}, tag_end + 1};
  const size_t inner_start = tag_end + 1;
  size_t search = inner_start;
  while (true) {
    const size_t end_tag = xml.find(close, search);
    if (end_tag == std::string_view::npos) {
      return Status::Corruption("xml: <" + std::string(name) + "> is never closed");
    }
    size_t i = end_tag + close.size();
    while (i < xml.size() && IsXmlSpace(xml[i])) ++i;
    if (i < xml.size() && xml[i] == '>') {
      return Element{true, xml.substr(inner_start, end_tag - inner_start), i + 1};
    }
    search = end_tag + close.size();
  }
}

/// The decoded text of the first `name` element inside `xml`; `required` makes absence an error.
Result<std::string> ChildText(std::string_view xml, std::string_view name, bool required) {
  HIGGINS_ASSIGN_OR_RETURN(Element e, FindElement(xml, name, 0));
  if (!e.found) {
    if (required) return Status::Corruption("xml: no <" + std::string(name) + ">");
    return std::string();
  }
  return XmlUnescape(e.inner);
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Status DecodeEntity(std::string_view entity, std::string* out) {
  if (entity == "amp") {
    out->push_back('&');
    return Status::OK();
  }
  if (entity == "lt") {
    out->push_back('<');
    return Status::OK();
  }
  if (entity == "gt") {
    out->push_back('>');
    return Status::OK();
  }
  if (entity == "quot") {
    out->push_back('"');
    return Status::OK();
  }
  if (entity == "apos") {
    out->push_back('\'');
    return Status::OK();
  }
  const auto bad = [entity] {
    return Status::Corruption("xml: bad entity &" + std::string(entity) + ";");
  };
  if (entity.size() < 2 || entity[0] != '#') return bad();
  int base = 10;
  std::string_view digits = entity.substr(1);
  if (digits[0] == 'x' || digits[0] == 'X') {
    base = 16;
    digits.remove_prefix(1);
  }
  uint32_t cp = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) return bad();
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return bad();
  AppendUtf8(cp, out);
  return Status::OK();
}

/// The text of an <IsTruncated> element (the only boolean the listings have).
Result<bool> ParseIsTruncated(std::string_view text) {
  if (text == "true") return true;
  if (text == "false") return false;
  return Status::Corruption("xml: <IsTruncated> is neither true nor false");
}

Result<uint64_t> ParseSize(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Status::Corruption("xml: <Size> is not a byte count");
  }
  return value;
}

}  // namespace

Result<std::string> XmlUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t amp = text.find('&', i);
    if (amp == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, amp - i));
    const size_t semi = text.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 12) {
      return Status::Corruption("xml: unterminated entity");
    }
    HIGGINS_RETURN_IF_ERROR(DecodeEntity(text.substr(amp + 1, semi - amp - 1), &out));
    i = semi + 1;
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

Result<ListPage> ParseListObjectsV2(std::string_view xml) {
  HIGGINS_ASSIGN_OR_RETURN(Element root, FindElement(xml, "ListBucketResult", 0));
  if (!root.found) return Status::Corruption("xml: not a ListBucketResult");
  ListPage page;
  size_t pos = 0;
  while (true) {
    HIGGINS_ASSIGN_OR_RETURN(Element contents, FindElement(root.inner, "Contents", pos));
    if (!contents.found) break;
    pos = contents.end;
    ObjectInfo info;
    HIGGINS_ASSIGN_OR_RETURN(info.key, ChildText(contents.inner, "Key", true));
    HIGGINS_ASSIGN_OR_RETURN(std::string size, ChildText(contents.inner, "Size", true));
    HIGGINS_ASSIGN_OR_RETURN(info.size, ParseSize(size));
    page.objects.push_back(std::move(info));
  }
  // IsTruncated and NextContinuationToken are children of the root (no <Contents> has them),
  // before or after the Contents depending on the server.
  HIGGINS_ASSIGN_OR_RETURN(std::string truncated, ChildText(root.inner, "IsTruncated", false));
  if (!truncated.empty()) {
    HIGGINS_ASSIGN_OR_RETURN(page.truncated, ParseIsTruncated(truncated));
  }
  HIGGINS_ASSIGN_OR_RETURN(page.next_token, ChildText(root.inner, "NextContinuationToken", false));
  if (page.truncated && page.next_token.empty()) {
    return Status::Corruption("xml: a truncated listing without a NextContinuationToken");
  }
  return page;
}

Result<UploadsPage> ParseListMultipartUploads(std::string_view xml) {
  HIGGINS_ASSIGN_OR_RETURN(Element root, FindElement(xml, "ListMultipartUploadsResult", 0));
  if (!root.found) return Status::Corruption("xml: not a ListMultipartUploadsResult");
  UploadsPage page;
  size_t pos = 0;
  while (true) {
    // "Upload" never matches the root's <UploadIdMarker> (names are matched whole).
    HIGGINS_ASSIGN_OR_RETURN(Element upload, FindElement(root.inner, "Upload", pos));
    if (!upload.found) break;
    pos = upload.end;
    MultipartUpload entry;
    HIGGINS_ASSIGN_OR_RETURN(entry.key, ChildText(upload.inner, "Key", true));
    HIGGINS_ASSIGN_OR_RETURN(entry.upload_id, ChildText(upload.inner, "UploadId", true));
    if (entry.key.empty() || entry.upload_id.empty()) {
      return Status::Corruption("xml: an <Upload> with an empty Key or UploadId");
    }
    page.uploads.push_back(std::move(entry));
  }
  // The markers and IsTruncated are children of the root, which no <Upload> repeats.
  HIGGINS_ASSIGN_OR_RETURN(std::string truncated, ChildText(root.inner, "IsTruncated", false));
  if (!truncated.empty()) {
    HIGGINS_ASSIGN_OR_RETURN(page.truncated, ParseIsTruncated(truncated));
  }
  HIGGINS_ASSIGN_OR_RETURN(page.next_key_marker, ChildText(root.inner, "NextKeyMarker", false));
  HIGGINS_ASSIGN_OR_RETURN(page.next_upload_id_marker,
                           ChildText(root.inner, "NextUploadIdMarker", false));
  if (page.truncated && page.next_key_marker.empty()) {
    return Status::Corruption("xml: a truncated upload listing without a NextKeyMarker");
  }
  return page;
}

Result<std::string> ParseUploadId(std::string_view xml) {
  HIGGINS_ASSIGN_OR_RETURN(Element root, FindElement(xml, "InitiateMultipartUploadResult", 0));
  if (!root.found) return Status::Corruption("xml: not an InitiateMultipartUploadResult");
  HIGGINS_ASSIGN_OR_RETURN(std::string id, ChildText(root.inner, "UploadId", true));
  if (id.empty()) return Status::Corruption("xml: empty <UploadId>");
  return id;
}

bool IsCompleteMultipartUploadResult(std::string_view xml) {
  auto root = FindElement(xml, "CompleteMultipartUploadResult", 0);
  return root.ok() && root->found;
}

S3Error ParseError(std::string_view xml) {
  auto root = FindElement(xml, "Error", 0);
  if (!root.ok() || !root->found) return {};
  auto code = ChildText(root->inner, "Code", false);
  auto message = ChildText(root->inner, "Message", false);
  return S3Error{code.ok() ? *code : std::string(), message.ok() ? *message : std::string()};
}

std::string CompleteMultipartUploadXml(const std::vector<std::string>& etags) {
  std::string xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
  for (size_t i = 0; i < etags.size(); ++i) {
    xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
           XmlEscape(etags[i]) + "</ETag></Part>";
  }
  xml += "</CompleteMultipartUpload>";
  return xml;
}

}  // namespace higgins::s3

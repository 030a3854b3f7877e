#include "server/wire_replies.h"

#include <vector>

#include "higgins/arrow/ipc/writer.h"

namespace higgins::server {

higgins::wire::Message ReplyTo(const higgins::wire::Message& request,
                               higgins::wire::Message::Type type) {
  higgins::wire::Message reply;
  reply.set_type(type);
  if (request.has_correlationid()) reply.set_correlationid(request.correlationid());
  return reply;
}

std::vector<std::string> ErrorLines(const Status& status) {
  std::vector<std::string> lines;
  const std::string& m = status.message();
  size_t start = 0;
  while (start <= m.size()) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    if (end > start) {
      lines.push_back(protocol::EscapeInvalidUtf8(std::string_view(m).substr(start, end - start)));
    }
    start = end + 1;
  }
  if (lines.empty()) lines.emplace_back(StatusCodeName(status.code()));
  return lines;
}

std::string LeftOutErrorsLine(size_t lines) {
  return "... and " + std::to_string(lines) +
         " more error line(s), left out to keep the reply within the frame limit";
}

bool CutErrorsToFit(higgins::wire::Message* reply, size_t limit) {
  using google::protobuf::FieldDescriptor;
  const size_t total = reply->ByteSizeLong();
  if (total <= limit) return true;
  const google::protobuf::Reflection* reflection = reply->GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(*reply, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->type() != FieldDescriptor::TYPE_MESSAGE || field->is_repeated()) continue;
    google::protobuf::Message* body = reflection->MutableMessage(reply, field);
    const FieldDescriptor* errors = body->GetDescriptor()->FindFieldByName("errors");
    if (errors == nullptr || !errors->is_repeated() ||
        errors->type() != FieldDescriptor::TYPE_STRING) {
      continue;
    }
    const google::protobuf::Reflection* body_reflection = body->GetReflection();
    const int lines = body_reflection->FieldSize(*body, errors);
    // Bytes to remove: the excess, the line that replaces the removed ones, and the few bytes
    // by which the body's length may shrink less than its content.
    const size_t need = total - limit +
                        protocol::FieldBytes(static_cast<uint32_t>(errors->number()),
                                             LeftOutErrorsLine(static_cast<size_t>(lines)).size()) +
                        protocol::VarintBytes(total);
    size_t removed = 0;
    int kept = lines;
    while (kept > 0 && removed < need) {
      --kept;
      removed += protocol::FieldBytes(
          static_cast<uint32_t>(errors->number()),
          body_reflection->GetRepeatedStringReference(*body, errors, kept, nullptr).size());
    }
    if (removed < need) return false;
    for (int i = kept; i < lines; ++i) body_reflection->RemoveLast(body, errors);
    body_reflection->AddString(body, errors, LeftOutErrorsLine(static_cast<size_t>(lines - kept)));
    return reply->ByteSizeLong() <= limit;
  }
  return false;
}

namespace {

/// The schema message of `schema`, from this thread's cache of the schemas it wrote last: a
/// query reply or a push is usually a record or two, for which encoding the schema cost about
/// as much as the batch. Null when the schema cannot be encoded.
const arrow::ipc::EncodedSchema* CachedSchema(const arrow::SchemaPtr& schema) {
  constexpr size_t kEntries = 16;
  thread_local std::vector<arrow::ipc::EncodedSchema> cache;  // least recently added first
  for (const arrow::ipc::EncodedSchema& entry : cache) {
    if (entry.schema() == schema) return &entry;
  }
  // Another object with the same schema (a batch decoded from storage) shares the entry.
  for (const arrow::ipc::EncodedSchema& entry : cache) {
    if (*entry.schema() == *schema) return &entry;
  }
  auto encoded = arrow::ipc::EncodedSchema::Make(schema);
  if (!encoded.ok()) return nullptr;
  if (cache.size() == kEntries) cache.erase(cache.begin());
  cache.push_back(*std::move(encoded));
  return &cache.back();
}

}  // namespace

Result<std::string> EncodeIpc(const arrow::SchemaPtr& schema, const arrow::RecordBatch* batch) {
  const arrow::ipc::EncodedSchema* encoded = CachedSchema(schema);
  // Not cacheable: the writer reports why.
  arrow::ipc::StreamWriter writer =
      encoded != nullptr ? arrow::ipc::StreamWriter(*encoded) : arrow::ipc::StreamWriter(schema);
  if (batch != nullptr) HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(*batch));
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, writer.Finish());
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace higgins::server

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

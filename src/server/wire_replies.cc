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

Result<std::string> EncodeIpc(const arrow::SchemaPtr& schema, const arrow::RecordBatch* batch) {
  std::vector<arrow::RecordBatch> batches;
  if (batch != nullptr) batches.push_back(*batch);
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, arrow::ipc::WriteStream(schema, batches));
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace higgins::server

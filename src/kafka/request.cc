#include "kafka/request.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

template <typename T>
Result<Request> Wrap(Result<T> result) {
  if (!result.ok()) return result.status();
  return Request(std::move(result).value());
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

Result<Request> DecodeRequest(const RequestHeader& header, Reader& reader) {
  const int16_t v = header.api_version;
  switch (header.api_key) {
    case ApiKey::kApiVersions: return Wrap(DecodeApiVersionsRequest(reader, v));
    case ApiKey::kMetadata: return Wrap(DecodeMetadataRequest(reader, v));
    case ApiKey::kProduce: return Wrap(DecodeProduceRequest(reader, v));
    case ApiKey::kFetch: return Wrap(DecodeFetchRequest(reader, v));
    case ApiKey::kListOffsets: return Wrap(DecodeListOffsetsRequest(reader, v));
    default: break;
  }
  return Status::NotSupported("API key " + std::to_string(static_cast<int>(header.api_key)) + " (" +
                              std::string(ApiKeyName(header.api_key)) + ") is not supported");
}

ApiKey ApiKeyOf(const Request& request) {
  return std::visit(Overloaded{
                        [](const ApiVersionsRequest&) { return ApiKey::kApiVersions; },
                        [](const MetadataRequest&) { return ApiKey::kMetadata; },
                        [](const ProduceRequest&) { return ApiKey::kProduce; },
                        [](const FetchRequest&) { return ApiKey::kFetch; },
                        [](const ListOffsetsRequest&) { return ApiKey::kListOffsets; },
                    },
                    request);
}

void EncodeRequest(const Request& request, int16_t version, Writer& writer) {
  std::visit(Overloaded{
                 [&](const ApiVersionsRequest& r) { EncodeApiVersionsRequest(r, version, writer); },
                 [&](const MetadataRequest& r) { EncodeMetadataRequest(r, version, writer); },
                 [&](const ProduceRequest& r) { EncodeProduceRequest(r, version, writer); },
                 [&](const FetchRequest& r) { EncodeFetchRequest(r, version, writer); },
                 [&](const ListOffsetsRequest& r) { EncodeListOffsetsRequest(r, version, writer); },
             },
             request);
}

}  // namespace higgins::kafka

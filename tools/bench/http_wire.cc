#include "http_wire.h"

namespace higgins::bench {

HttpRequest ProduceRequest(std::string_view stream) {
  HttpRequest request(beast_http::verb::post, "/v1/streams/" + std::string(stream) + "/records",
                      11);
  request.set(beast_http::field::host, "127.0.0.1");
  request.set(beast_http::field::content_type, "application/json");
  request.keep_alive(true);
  return request;
}

void SetBody(HttpRequest* request, std::string body) {
  request->body() = std::move(body);
  request->prepare_payload();
}

void AppendHttpRequest(HttpRequest* request, std::string* out) {
  beast_http::serializer<true, beast_http::string_body> serializer(*request);
  beast::error_code ec;
  while (!serializer.is_done() && !ec) {
    serializer.next(ec, [&](beast::error_code&, const auto& buffers) {
      size_t bytes = 0;
      for (const auto& buffer : beast::buffers_range_ref(buffers)) {
        out->append(static_cast<const char*>(buffer.data()), buffer.size());
        bytes += buffer.size();
      }
      serializer.consume(bytes);
    });
  }
}

Status HttpResponseSplitter::Consume(std::string_view bytes, std::vector<HttpAnswer>* out) {
  pending_.append(bytes);
  size_t used = 0;
  while (used < pending_.size()) {
    if (!parser_) {
      parser_.emplace();
      parser_->eager(true);
    }
    beast::error_code ec;
    const size_t n = parser_->put(asio::buffer(pending_.data() + used, pending_.size() - used), ec);
    used += n;
    if (ec == beast_http::error::need_more) break;
    if (ec) return Status::Corruption("HTTP response: " + ec.message());
    if (!parser_->is_done()) {
      if (n == 0) break;
      continue;
    }
    auto& response = parser_->get();
    out->push_back({response.result_int(), std::move(response.body())});
    parser_.reset();
  }
  pending_.erase(0, used);
  return Status::OK();
}

}  // namespace higgins::bench

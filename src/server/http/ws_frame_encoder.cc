#include "server/http/ws_frame_encoder.h"

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <optional>

#include "server/asio.h"

namespace higgins::server::http {
namespace {

namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;

// A synchronous stream whose writes land in a string and whose reads find the end of the
// stream: the next layer of the framer's websocket::stream.
class CaptureStream {
 public:
  using executor_type = asio::io_context::executor_type;

  CaptureStream(asio::io_context& io, std::string* out) : io_(&io), out_(out) {}

  executor_type get_executor() noexcept { return io_->get_executor(); }

  template <typename MutableBuffers>
  size_t read_some(const MutableBuffers& /*buffers*/, boost::system::error_code& ec) {
    ec = asio::error::eof;
    return 0;
  }
  template <typename MutableBuffers>
  size_t read_some(const MutableBuffers& buffers) {
    boost::system::error_code ec;
    size_t n = read_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
  template <typename ConstBuffers>
  size_t write_some(const ConstBuffers& buffers, boost::system::error_code& ec) {
    ec = {};
    size_t n = 0;
    for (auto it = asio::buffer_sequence_begin(buffers); it != asio::buffer_sequence_end(buffers);
         ++it) {
      const asio::const_buffer b = *it;
      out_->append(static_cast<const char*>(b.data()), b.size());
      n += b.size();
    }
    return n;
  }
  template <typename ConstBuffers>
  size_t write_some(const ConstBuffers& buffers) {
    boost::system::error_code ec;
    return write_some(buffers, ec);
  }

 private:
  asio::io_context* io_;
  std::string* out_;
};

// The websocket::stream's closing handshake would end the sink's "connection": nothing to do.
[[maybe_unused]] void teardown(beast::role_type /*role*/, CaptureStream& /*stream*/,
                               boost::system::error_code& ec) {
  ec = {};
}

// One thread's framer: a server-role stream, opened by a handshake whose answer is dropped.
class Framer {
 public:
  Framer() : ws_(io_, &out_) {
    beast::http::request<beast::http::empty_body> upgrade{beast::http::verb::get, "/", 11};
    upgrade.set(beast::http::field::host, "localhost");
    upgrade.set(beast::http::field::upgrade, "websocket");
    upgrade.set(beast::http::field::connection, "upgrade");
    upgrade.set(beast::http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    upgrade.set(beast::http::field::sec_websocket_version, "13");
    ws_.accept(upgrade, opened_);
    ws_.text(true);
    ws_.auto_fragment(false);
  }

  Result<std::string> Encode(std::string_view payload) {
    if (opened_) return Status::Internal("WebSocket framer: " + opened_.message());
    out_.clear();
    boost::system::error_code ec;
    ws_.write(asio::buffer(payload.data(), payload.size()), ec);
    if (ec) return Status::Internal("WebSocket framer: " + ec.message());
    return std::move(out_);
  }

 private:
  asio::io_context io_{1};
  std::string out_;
  boost::system::error_code opened_;
  websocket::stream<CaptureStream> ws_;
};

}  // namespace

Result<std::string> EncodeTextFrame(std::string_view payload) {
  thread_local Framer framer;
  return framer.Encode(payload);
}

}  // namespace higgins::server::http

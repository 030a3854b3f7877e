#pragma once

#include <string_view>

#include "protocol/messages.h"

namespace higgins::broker {

template <typename Body>
void SetError(Body* body, const Status& status) {
  const std::string& m = status.message();
  size_t start = 0;
  while (start <= m.size()) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    // Messages quote client bytes (stream names, keys); `errors` must stay valid UTF-8.
    if (end > start) {
      body->add_errors(protocol::EscapeInvalidUtf8(std::string_view(m).substr(start, end - start)));
    }
    start = end + 1;
  }
  if (body->errors_size() == 0) body->add_errors(std::string(StatusCodeName(status.code())));
  body->set_code(protocol::ToErrorCode(status.code()));
}

}  // namespace higgins::broker

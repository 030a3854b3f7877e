#pragma once

#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::server::http {

/// The bytes on the wire of one WebSocket text message of `payload`, as a server sends it
/// (RFC 6455 section 5: one unfragmented, unmasked frame; no extension), framed by Beast.
///
/// A push goes to every reader of a stream as the same bytes: the stream's tail frames each
/// record once (this function), and every channel appends those bytes to its socket's
/// CoalescingStream, so that a batch of records costs a reader one socket write. The framing
/// stays Beast's: a websocket::stream in the server role over a memory sink, opened once per
/// thread, whose writes are captured.
///
/// Thread-safe (one framer per thread). Errors: Internal when Beast refuses the message (it
/// does not, for a text payload, which need not even be valid UTF-8 when sent).
Result<std::string> EncodeTextFrame(std::string_view payload);

}  // namespace higgins::server::http

#include "nats_session.h"

namespace higgins::bench {

std::string NatsError(const char* what, natsStatus s, jsErrCode code) {
  std::string text = std::string(what) + ": " + natsStatus_GetText(s);
  if (code != 0) text += " (JetStream error " + std::to_string(static_cast<int>(code)) + ")";
  const char* last = nats_GetLastError(nullptr);
  if (last != nullptr && *last != 0) text += ": " + std::string(last);
  return text;
}

NatsSession::~NatsSession() {
  if (js != nullptr) jsCtx_Destroy(js);
  if (nc != nullptr) {
    natsConnection_Close(nc);
    natsConnection_Destroy(nc);
  }
}

Status NatsSession::Open(uint16_t port, bool send_asap, int timeout_ms, jsOptions* js_options) {
  natsOptions* options = nullptr;
  natsStatus s = natsOptions_Create(&options);
  const std::string url = "nats://127.0.0.1:" + std::to_string(port);
  if (s == NATS_OK) s = natsOptions_SetURL(options, url.c_str());
  if (s == NATS_OK) s = natsOptions_SetSendAsap(options, send_asap);
  if (s == NATS_OK) s = natsOptions_SetAllowReconnect(options, false);
  if (s == NATS_OK) s = natsOptions_SetTimeout(options, timeout_ms);
  // Never drop pushes for a slow callback (the default limit is 65,536 messages).
  if (s == NATS_OK) s = natsOptions_SetMaxPendingMsgs(options, 10'000'000);
  if (s == NATS_OK) s = natsConnection_Connect(&nc, options);
  natsOptions_Destroy(options);
  if (s != NATS_OK) return Status::IOError(NatsError("connecting to nats-server", s));
  s = natsConnection_JetStream(&js, nc, js_options);
  if (s != NATS_OK) return Status::IOError(NatsError("JetStream context", s));
  return Status::OK();
}

}  // namespace higgins::bench

#include "server/kafka/kafka_listener.h"

#include <spdlog/spdlog.h>

#include "server/accept_loop.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_session.h"
#include "server/listen.h"
#include "server/memory_release.h"

namespace higgins::server::kafka {

KafkaListener::KafkaListener(std::vector<asio::io_context*> contexts, KafkaHandler* handler,
                             KafkaListenerOptions options)
    : io_(*contexts.at(0)),
      contexts_(std::move(contexts)),
      handler_(handler),
      options_(std::move(options)),
      own_budget_(options_.budget ? nullptr : std::make_unique<ByteBudget>()),
      budget_(options_.budget ? options_.budget : own_budget_.get()),
      memory_release_(std::make_shared<MemoryRelease>(io_)),
      acceptor_(io_),
      tick_(io_) {}

KafkaListener::~KafkaListener() = default;

Status KafkaListener::Start() {
  HIGGINS_RETURN_IF_ERROR(Listen(&acceptor_, options_.bind, options_.port, "Kafka"));
  port_ = acceptor_.local_endpoint().port();
  asio::co_spawn(io_, Accept(), asio::detached);
  ArmTick();
  return Status::OK();
}

void KafkaListener::ArmTick() {
  tick_.expires_after(std::chrono::milliseconds(100));
  tick_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    handler_->Tick();
    ArmTick();
  });
}

asio::awaitable<void> KafkaListener::Accept() {
  return AcceptConnections(
      acceptor_, contexts_, &next_context_, /*on_strand=*/false, sessions_,
      options_.max_connections, "Kafka",
      [this](asio::ip::tcp::socket socket, size_t) {
        return std::make_shared<KafkaSession>(this, std::move(socket), next_connection_id_++);
      },
      // The session, never started, closes its socket.
      [](const std::shared_ptr<KafkaSession>&, size_t) {});
}

void KafkaListener::Remove(KafkaSession* session) {
  memory_release_->Schedule();
  sessions_.Remove(session);
}

void KafkaListener::Stop(std::function<void()> done) {
  StopListening(io_, acceptor_, sessions_, std::move(done), [this] { tick_.cancel(); });
}

size_t KafkaListener::connection_count() const {
  return sessions_.size();
}

}  // namespace higgins::server::kafka

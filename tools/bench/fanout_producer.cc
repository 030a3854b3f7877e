#include "fanout_producer.h"

#include <algorithm>
#include <utility>

namespace higgins::bench {

using tcp = asio::ip::tcp;

FanoutProducer::FanoutProducer(asio::io_context& io, const FanoutOptions& options, uint64_t records)
    : io_(io), options_(options), records_(records), timer_(io), acknowledged_seqs_(records) {
  // Sized so that a record with the largest seq and a 16-digit time is about record_bytes.
  const size_t base = Record(static_cast<int64_t>(records), int64_t{1} << 53, "").size();
  payload_.assign(options.record_bytes > base ? options.record_bytes - base : 1, 'x');
}

Status FanoutProducer::Connect(const tcp::endpoint& broker) {
  for (uint32_t c = 0; c < options_.producer_connections; ++c) {
    auto connection = std::make_unique<Connection>(io_, ProduceRequest(options_.stream));
    beast::error_code ec;
    connection->stream.socket().connect(broker, ec);
    if (ec) return Status::IOError("producer connection: " + ec.message());
    connection->stream.socket().set_option(tcp::no_delay(true), ec);
    connections_.push_back(std::move(connection));
  }
  for (auto& connection : connections_) {
    asio::post(io_, [this, c = connection.get()] { ReadAnswer(c); });
  }
  return Status::OK();
}

void FanoutProducer::SendWarmup() {
  asio::post(io_, [this] {
    const auto now = Clock::now();
    Send(Record(-1, SteadyMicros(now), kFanoutWarmupKey), now, -1);
  });
}

void FanoutProducer::Start(Clock::time_point start) {
  asio::post(io_, [this, start] {
    start_ = start;
    Tick();
  });
}

void FanoutProducer::Stop() {
  stopping_ = true;
  timer_.cancel();
  for (auto& connection : connections_) connection->stream.close();
}

std::string FanoutProducer::Record(int64_t seq, int64_t sent_us, std::string_view key) const {
  std::string out = "{\"id\":\"";
  if (key.empty()) {
    out.append("k").append(std::to_string(static_cast<uint64_t>(seq) % options_.keys));
  } else {
    out.append(key);
  }
  out.append("\",\"seq\":").append(std::to_string(seq));
  out.append(",\"sent_us\":").append(std::to_string(sent_us));
  out.append(",\"payload\":\"").append(payload_).append("\"}");
  return out;
}

FanoutProducer::Clock::time_point FanoutProducer::Scheduled(uint64_t i) const {
  return start_ + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(static_cast<double>(i) / options_.rate));
}

void FanoutProducer::Tick() {
  const auto now = Clock::now();
  while (next_ < records_ && Scheduled(next_) <= now) {
    const auto scheduled = Scheduled(next_);
    max_lateness_us_ = std::max<uint64_t>(
        max_lateness_us_, static_cast<uint64_t>(SteadyMicros(now) - SteadyMicros(scheduled)));
    const auto seq = static_cast<int64_t>(next_);
    Send(Record(seq, SteadyMicros(scheduled), ""), now, seq);
    ++next_;
  }
  if (next_ >= records_ || stopping_) return;
  timer_.expires_at(Scheduled(next_));
  timer_.async_wait([this](beast::error_code ec) {
    if (!ec) Tick();
  });
}

void FanoutProducer::Send(std::string body, Clock::time_point now, int64_t seq) {
  Connection& c = *connections_[next_connection_++ % connections_.size()];
  SetBody(&c.request, std::move(body));
  AppendHttpRequest(&c.request, &c.pending);
  c.sent.push_back({now, seq});
  if (!c.busy) Write(&c);
}

void FanoutProducer::Write(Connection* c) {
  c->busy = true;
  c->writing.clear();
  std::swap(c->writing, c->pending);
  asio::async_write(c->stream.socket(), asio::buffer(c->writing),
                    [this, c](beast::error_code ec, size_t) {
                      c->busy = false;
                      if (ec) return Broken(c, "write: " + ec.message());
                      if (!c->pending.empty()) Write(c);
                    });
}

void FanoutProducer::ReadAnswer(Connection* c) {
  c->answer = {};
  beast_http::async_read(c->stream, c->buffer, c->answer, [this, c](beast::error_code ec, size_t) {
    if (ec) return Broken(c, "read: " + ec.message());
    OnAnswer(c);
    ReadAnswer(c);
  });
}

void FanoutProducer::OnAnswer(Connection* c) {
  const auto now = Clock::now();
  if (c->sent.empty()) return Broken(c, "an answer to no request");
  const Sent sent = c->sent.front();
  c->sent.pop_front();
  if (c->answer.result_int() != 200) {
    if (sent.seq >= 0) failed_.fetch_add(1);
    Note("HTTP " + std::to_string(c->answer.result_int()) + ": " + c->answer.body());
    return;
  }
  if (sent.seq < 0) return;
  acknowledged_seqs_[static_cast<size_t>(sent.seq)] = true;
  post_us_.Add(static_cast<uint64_t>(SteadyMicros(now) - SteadyMicros(sent.at)));
  last_ack_.store(now.time_since_epoch().count());
  acknowledged_.fetch_add(1);
}

void FanoutProducer::Broken(Connection* c, const std::string& why) {
  if (stopping_) return;
  const auto lost =
      std::count_if(c->sent.begin(), c->sent.end(), [](const Sent& s) { return s.seq >= 0; });
  failed_.fetch_add(static_cast<uint64_t>(lost));
  c->sent.clear();
  Note("producer connection: " + why);
  beast::error_code ignored;
  c->stream.socket().close(ignored);
}

void FanoutProducer::Note(const std::string& error) {
  if (first_error_.empty()) first_error_ = error.substr(0, 300);
}

}  // namespace higgins::bench

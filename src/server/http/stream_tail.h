#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "broker/broker_api.h"
#include "server/asio.h"

namespace higgins::server::http {

/// One record of a stream as a WebSocket channel pushes it: where it is, and its text frame
/// `{"stream","partition_key","offset","bucket","commit_time","record"}` (docs/http.md,
/// "WebSocket channels"), rendered once and shared by every reader.
struct TailRecord {
  uint32_t bucket = 0;
  uint64_t sequence = 0;  // in its bucket log
  std::string key;        // the partition key
  uint64_t offset = 0;    // in its partition
  std::shared_ptr<const std::string> frame;
};
using TailBatch = std::shared_ptr<const std::vector<TailRecord>>;

/// Renders the rows of one bucket-log entry as TailRecords (appended to `out`), from row
/// `first_row` on.
void RenderEntry(std::string_view stream, uint32_t bucket, const broker::BucketEntry& entry,
                 size_t first_row, std::vector<TailRecord>* out);

/// The new records of one stream, read once from its bucket logs and handed to every reader
/// (the WebSocket channels of that stream): after each commit the broker wakes the tail
/// (BrokerApi::WaitForCommit), which reads what each bucket gained, renders it, and gives every
/// reader the same batch. Runs on a strand of one io_context.
///
/// Thread-safety: Subscribe and Unsubscribe may be called from any thread; sinks are called on
/// the tail's strand and must only post work.
class StreamTail : public std::enable_shared_from_this<StreamTail> {
 public:
  using Sink = std::function<void(const TailBatch&)>;
  /// Where the live feed of a reader starts: per bucket, the first sequence it will get.
  using Positions = std::vector<uint64_t>;

  /// Starts at the end of every bucket. Errors: NotFound (stream, window stream).
  static Result<std::shared_ptr<StreamTail>> Open(broker::BrokerApi* broker, std::string stream,
                                                  const asio::any_io_executor& executor);
  /// Adds a reader. `started` gets, on the tail's strand, the positions from which every record
  /// will reach `sink` (for a reader that first catches up on older records); a batch of
  /// records before them may reach `sink` before `started` runs.
  uint64_t Subscribe(Sink sink, std::function<void(const Positions&)> started);
  /// Removes a reader; returns how many are left.
  size_t Unsubscribe(uint64_t id);
  /// Stops waiting for commits (the last reader has gone).
  void Stop();

 private:
  StreamTail(broker::BrokerApi* broker, std::string stream, const asio::any_io_executor& executor,
             Positions ends);
  void Arm();
  void Drain();

  broker::BrokerApi* broker_;
  const std::string stream_;
  asio::strand<asio::any_io_executor> strand_;
  Positions next_;  // per bucket: the next sequence to read
  std::mutex mu_;   // over sinks_, wait_id_, armed_, stopped_
  std::map<uint64_t, Sink> sinks_;
  uint64_t next_sink_ = 1;
  uint64_t wait_id_ = 0;
  bool armed_ = false;
  bool stopped_ = false;
};

/// The StreamTail of each stream that has readers, shared by the channels of every connection.
/// Thread-safe.
class StreamTails {
 public:
  StreamTails(broker::BrokerApi* broker, asio::any_io_executor executor)
      : broker_(broker), executor_(std::move(executor)) {}
  ~StreamTails();
  /// The tail of `stream`, opened when it has none. Errors: those of StreamTail::Open.
  Result<std::shared_ptr<StreamTail>> Get(const std::string& stream);
  /// Unsubscribes `id` from `tail`, and stops and forgets the tail when it was the last reader.
  void Leave(const std::string& stream, const std::shared_ptr<StreamTail>& tail, uint64_t id);

 private:
  broker::BrokerApi* broker_;
  asio::any_io_executor executor_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<StreamTail>> tails_;
};

}  // namespace higgins::server::http

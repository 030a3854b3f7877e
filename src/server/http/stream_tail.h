#pragma once

#include <chrono>
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

/// One record of a stream as a WebSocket channel pushes it: where it is, its JSON object
/// `{"stream","partition_key","offset","bucket","commit_time","record"}` (docs/http.md,
/// "WebSocket channels"), and that object framed as a text message; rendered once and shared by
/// every reader.
struct TailRecord {
  uint32_t bucket = 0;
  uint64_t sequence = 0;  // in its bucket log
  std::string key;        // the partition key
  uint64_t offset = 0;    // in its partition
  std::shared_ptr<const std::string> json;
  /// `json` as a text message on the wire (EncodeTextFrame).
  std::shared_ptr<const std::string> frame;
};

/// The records one drain of a StreamTail found, in bucket order and, within a bucket, in log
/// order.
struct TailRecords {
  std::vector<TailRecord> records;
  /// All of them as one text message holding a JSON array of their objects (the channels'
  /// `batch=true`), rendered when a reader asked for it; null otherwise.
  std::shared_ptr<const std::string> array_frame;
};
using TailBatch = std::shared_ptr<const TailRecords>;

/// A text message of a JSON array of `objects` (each a JSON value), framed (EncodeTextFrame).
Result<std::string> EncodeArrayFrame(
    const std::vector<std::shared_ptr<const std::string>>& objects);

/// Renders the rows of one bucket-log entry as TailRecords (appended to `out`), from row
/// `first_row` on.
void RenderEntry(std::string_view stream, uint32_t bucket, const broker::BucketEntry& entry,
                 size_t first_row, std::vector<TailRecord>* out);

/// The new records of one stream, read once from its bucket logs and handed to every reader
/// (the WebSocket channels of that stream): after each commit the broker wakes the tail
/// (BrokerApi::WaitForCommit), which reads what each bucket gained, renders it, and gives every
/// reader the same batch. Commits closer together than `push_interval` are read together (a
/// commit after a quiet spell is read at once): each batch costs every reader a post and a
/// socket write whatever its number of records, so the interval bounds the writes per reader
/// per second, at the price of up to that much latency under load. Nor does a push start
/// before every reader has queued the previous one (each holds its Delivery until then): when
/// the network threads fall behind, pushes come less often and carry more records each, so
/// the work per record falls instead of piling up. Runs on a strand of one io_context.
///
/// Thread-safety: Subscribe and Unsubscribe may be called from any thread; sinks are called on
/// the tail's strand and must only post work.
class StreamTail : public std::enable_shared_from_this<StreamTail> {
 public:
  /// Held by a reader from the batch's arrival until it has queued it on its connection (or
  /// dropped it); the tail's next push waits until every reader has let go of the last one.
  using Delivery = std::shared_ptr<void>;
  /// Called on the tail's strand: must only post work, taking the Delivery along.
  using Sink = std::function<void(const TailBatch&, const Delivery&)>;
  /// Where the live feed of a reader starts: per bucket, the first sequence it will get.
  using Positions = std::vector<uint64_t>;

  /// Starts at the end of every bucket. Errors: NotFound (stream, window stream).
  static Result<std::shared_ptr<StreamTail>> Open(broker::BrokerApi* broker, std::string stream,
                                                  const asio::any_io_executor& executor,
                                                  std::chrono::microseconds push_interval);
  /// Adds a reader; `arrays`: it takes batches as one array message (TailRecords::array_frame).
  /// `started` gets, on the tail's strand, the positions from which every record
  /// will reach `sink` (for a reader that first catches up on older records); a batch of
  /// records before them may reach `sink` before `started` runs.
  uint64_t Subscribe(Sink sink, std::function<void(const Positions&)> started, bool arrays);
  /// Removes a reader; returns how many are left.
  size_t Unsubscribe(uint64_t id);
  /// Stops waiting for commits (the last reader has gone).
  void Stop();

 private:
  StreamTail(broker::BrokerApi* broker, std::string stream, const asio::any_io_executor& executor,
             std::chrono::microseconds push_interval, Positions ends);
  void Arm();
  void Drain();
  /// Drains now, or push_interval_ after the last drain when that was sooner, or once the
  /// readers have queued the last push. On the strand.
  void ScheduleDrain();
  /// Every reader has queued one push. On the strand.
  void OnDelivered();

  struct Reader {
    Sink sink;
    bool arrays = false;
  };
  /// One push on its way to the readers, handed out a slice at a time.
  struct Push {
    std::vector<std::shared_ptr<const Reader>> readers;
    TailBatch batch;
    Delivery delivery;
  };
  /// Hands `push` to its readers from `from` on, a slice now and the rest in a later handler.
  /// On the strand.
  void HandOut(const std::shared_ptr<const Push>& push, size_t from);

  broker::BrokerApi* broker_;
  const std::string stream_;
  const std::chrono::microseconds push_interval_;
  asio::strand<asio::any_io_executor> strand_;
  asio::steady_timer drain_timer_;  // on strand_, as the two below
  std::chrono::steady_clock::time_point last_drain_;
  bool drain_scheduled_ = false;
  size_t pushes_out_ = 0;       // pushes some reader has not queued yet
  bool drain_waiting_ = false;  // a drain to run once none is out
  Positions next_;              // per bucket: the next sequence to read
  std::mutex mu_;               // over sinks_, wait_id_, armed_, stopped_
  std::map<uint64_t, std::shared_ptr<const Reader>> sinks_;  // copied by each drain
  size_t array_readers_ = 0;
  uint64_t next_sink_ = 1;
  uint64_t wait_id_ = 0;
  bool armed_ = false;
  bool stopped_ = false;
};

/// The StreamTail of each stream that has readers, shared by the channels of every connection.
/// Thread-safe.
class StreamTails {
 public:
  StreamTails(broker::BrokerApi* broker, asio::any_io_executor executor,
              std::chrono::microseconds push_interval)
      : broker_(broker), executor_(std::move(executor)), push_interval_(push_interval) {}
  ~StreamTails();
  /// The tail of `stream`, opened when it has none. Errors: those of StreamTail::Open.
  Result<std::shared_ptr<StreamTail>> Get(const std::string& stream);
  /// Unsubscribes `id` from `tail`, and stops and forgets the tail when it was the last reader.
  void Leave(const std::string& stream, const std::shared_ptr<StreamTail>& tail, uint64_t id);

 private:
  broker::BrokerApi* broker_;
  asio::any_io_executor executor_;
  const std::chrono::microseconds push_interval_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<StreamTail>> tails_;
};

}  // namespace higgins::server::http

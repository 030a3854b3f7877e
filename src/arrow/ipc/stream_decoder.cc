#include "arrow/ipc/stream_decoder.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "arrow/ipc/dictionary_memo.h"
#include "arrow/ipc/framing.h"
#include "arrow/ipc/metadata.h"
#include "higgins/bit_util.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {
namespace {

// "ARRO" read as a little-endian int32: the start of an IPC file, which would otherwise be taken
// for a legacy message of about 1.3 GB.
constexpr int32_t kFileMagicWord = 0x4F525241;

}  // namespace

// The framing state machine of docs/arrow-ipc.md ("Framing"). Input chunks are queued as
// Buffers; each step waits until `need` bytes are buffered, then takes them: as a zero-copy slice
// when they sit inside one chunk, as a copy when they span chunks.
struct StreamDecoder::State {
  enum class Step { kPrefix, kLength, kMetadata, kBody, kFinished, kFailed };

  explicit State(ReadOptions opts) : options(opts) {}

  ReadOptions options;
  Step step = Step::kPrefix;
  size_t need = 4;
  std::deque<Buffer> chunks;
  size_t buffered = 0;
  MessageMetadata message;  // metadata of the message whose body is awaited
  SchemaPtr schema;
  DictionaryMemo dictionaries;  // per id, across the whole stream
  std::deque<Event> events;
  Status error;
  int64_t batches_decoded = 0;
  int64_t dictionary_batches_decoded = 0;

  Status Fail(Status status) {
    step = Step::kFailed;
    error = std::move(status);
    chunks.clear();
    buffered = 0;
    return error;
  }

  // Removes the first `n` buffered bytes (n <= buffered).
  Buffer Take(size_t n) {
    if (n == 0) return Buffer();
    buffered -= n;
    Buffer& front = chunks.front();
    if (front.size() >= n) {
      Buffer out = front.Slice(0, n);
      if (front.size() == n) {
        chunks.pop_front();
      } else {
        front = front.Slice(n, front.size() - n);
      }
      return out;
    }
    BufferBuilder builder;
    builder.Reserve(n);
    while (n > 0) {
      Buffer& chunk = chunks.front();
      const size_t part = std::min(n, chunk.size());
      builder.Append(chunk.data(), part);
      n -= part;
      if (part == chunk.size()) {
        chunks.pop_front();
      } else {
        chunk = chunk.Slice(part, chunk.size() - part);
      }
    }
    return builder.Finish();
  }

  int32_t TakeInt32() {
    const Buffer bytes = Take(4);
    return bit_util::LoadLE<int32_t>(bytes.data());
  }

  Status BeginMetadata(int32_t size) {
    if (size > options.limits.max_metadata_bytes) {
      return Status::ResourceExhausted("message metadata of " + std::to_string(size) +
                                       " bytes exceeds the limit of " +
                                       std::to_string(options.limits.max_metadata_bytes));
    }
    step = Step::kMetadata;
    need = static_cast<size_t>(size);
    return Status::OK();
  }

  Status EndOfStream() {
    if (schema == nullptr) return Status::Corruption("end of stream before the schema message");
    step = Step::kFinished;
    events.push_back({EventKind::kEndOfStream, RecordBatch()});
    return Status::OK();
  }

  Status OnMetadata() {
    Buffer bytes = Take(need);
    // FlatBuffers reads scalars in place: the metadata must be 8-byte aligned in memory.
    if (reinterpret_cast<uintptr_t>(bytes.data()) % kIpcAlignment != 0) {
      bytes = Buffer::Copy(bytes.span());
    }
    HIGGINS_ASSIGN_OR_RETURN(message, DecodeMessage(bytes.span(), options.limits));
    switch (message.kind) {
      case MessageKind::kSchema:
        if (schema != nullptr) return Status::Corruption("a second schema message");
        break;
      case MessageKind::kRecordBatch:
        if (schema == nullptr) return Status::Corruption("record batch before the schema message");
        break;
      case MessageKind::kDictionaryBatch:
        if (schema == nullptr) {
          return Status::Corruption("dictionary batch before the schema message");
        }
        break;
    }
    step = Step::kBody;
    need = static_cast<size_t>(message.body_length);
    return Status::OK();
  }

  Status OnBody() {
    const Buffer body = Take(need);
    switch (message.kind) {
      case MessageKind::kSchema:
        schema = message.schema;
        dictionaries =
            DictionaryMemo(std::move(message.schema), std::move(message.dictionary_fields));
        events.push_back({EventKind::kSchema, RecordBatch()});
        break;
      case MessageKind::kDictionaryBatch: {
        const Status st = dictionaries.ApplyDictionaryBatch(message, body, options,
                                                            /*replacement_allowed=*/true);
        if (!st.ok()) {
          return st.WithContext("dictionary batch " + std::to_string(dictionary_batches_decoded));
        }
        ++dictionary_batches_decoded;
        break;
      }
      case MessageKind::kRecordBatch: {
        auto batch = dictionaries.DecodeRecordBatch(message.batch, body, options);
        if (!batch.ok()) {
          return batch.status().WithContext("record batch " + std::to_string(batches_decoded));
        }
        ++batches_decoded;
        events.push_back({EventKind::kRecordBatch, std::move(batch).value()});
        break;
      }
    }
    message = MessageMetadata();
    step = Step::kPrefix;
    need = 4;
    return Status::OK();
  }

  // Which part of a message the input stopped in, and how much of it arrived (for Close).
  std::string CutPart() const {
    const std::string got = std::to_string(buffered);
    const std::string of = std::to_string(need);
    switch (step) {
      case Step::kPrefix: return "a message prefix (" + got + " of at least 4 bytes)";
      case Step::kLength:
        return "a message prefix (" + std::to_string(4 + buffered) + " of 8 bytes)";
      case Step::kMetadata: return "a message's metadata (" + got + " of " + of + " bytes)";
      case Step::kBody: return "a message body (" + got + " of " + of + " bytes)";
      case Step::kFinished:
      case Step::kFailed: break;
    }
    return "a message";
  }

  // Runs steps while enough bytes are buffered.
  Status Advance() {
    while (step != Step::kFinished && buffered >= need) {
      switch (step) {
        case Step::kPrefix: {
          const int32_t word = TakeInt32();
          if (schema == nullptr && word == kFileMagicWord) {
            return Status::Corruption(
                "input is an Arrow IPC file (\"ARROW1\" magic), not a stream");
          }
          if (word == -1) {  // continuation marker (0xFFFFFFFF)
            step = Step::kLength;
            need = 4;
          } else if (word == 0) {  // end of stream, pre-0.15 form
            HIGGINS_RETURN_IF_ERROR(EndOfStream());
          } else if (word > 0) {  // pre-0.15 message without continuation marker
            if (word > options.limits.max_metadata_bytes) {
              // Far more likely some other kind of data than a huge legacy message.
              return Status::Corruption(
                  "not an Arrow IPC stream: expected the continuation marker 0xFFFFFFFF, got " +
                  std::to_string(static_cast<uint32_t>(word)) +
                  " (as a pre-0.15 metadata length it exceeds the limit of " +
                  std::to_string(options.limits.max_metadata_bytes) + " bytes)");
            }
            HIGGINS_RETURN_IF_ERROR(BeginMetadata(word));
          } else {
            return Status::Corruption("invalid message prefix " + std::to_string(word));
          }
          break;
        }
        case Step::kLength: {
          const int32_t size = TakeInt32();
          if (size == 0) {
            HIGGINS_RETURN_IF_ERROR(EndOfStream());
          } else if (size < 0) {
            return Status::Corruption("negative metadata length " + std::to_string(size));
          } else {
            HIGGINS_RETURN_IF_ERROR(BeginMetadata(size));
          }
          break;
        }
        case Step::kMetadata: HIGGINS_RETURN_IF_ERROR(OnMetadata()); break;
        case Step::kBody: HIGGINS_RETURN_IF_ERROR(OnBody()); break;
        case Step::kFinished:
        case Step::kFailed: return Status::Internal("decoder advanced in a final state");
      }
    }
    if (step == Step::kFinished && buffered > 0) {
      return Status::Corruption(std::to_string(buffered) + " bytes after the end-of-stream marker");
    }
    return Status::OK();
  }

  Status Push(Buffer chunk) {
    if (step == Step::kFailed) return error;
    if (chunk.empty()) return Status::OK();
    buffered += chunk.size();
    chunks.push_back(std::move(chunk));
    if (Status st = Advance(); !st.ok()) return Fail(std::move(st));
    return Status::OK();
  }
};

StreamDecoder::StreamDecoder(ReadOptions options) : state_(std::make_unique<State>(options)) {}
StreamDecoder::~StreamDecoder() = default;
StreamDecoder::StreamDecoder(StreamDecoder&&) noexcept = default;
StreamDecoder& StreamDecoder::operator=(StreamDecoder&&) noexcept = default;

Status StreamDecoder::Consume(std::span<const uint8_t> bytes) {
  if (state_->step == State::Step::kFailed) return state_->error;
  if (bytes.empty()) return Status::OK();
  return state_->Push(Buffer::Copy(bytes));
}

Status StreamDecoder::Consume(const Buffer& bytes) {
  return state_->Push(bytes);
}

std::optional<StreamDecoder::Event> StreamDecoder::Poll() {
  if (state_->events.empty()) return std::nullopt;
  Event event = std::move(state_->events.front());
  state_->events.pop_front();
  return event;
}

Status StreamDecoder::Close() {
  State& s = *state_;
  switch (s.step) {
    case State::Step::kFailed: return s.error;
    case State::Step::kFinished: return Status::OK();
    case State::Step::kPrefix:
      if (s.buffered == 0) {
        if (s.schema == nullptr) return s.Fail(Status::Corruption("stream has no schema message"));
        // A stream may end without the end-of-stream marker (the transport closing ends it).
        s.step = State::Step::kFinished;
        s.events.push_back({EventKind::kEndOfStream, RecordBatch()});
        return Status::OK();
      }
      break;
    default: break;
  }
  return s.Fail(Status::Corruption("truncated stream: the input ends inside " + s.CutPart()));
}

const SchemaPtr& StreamDecoder::schema() const {
  return state_->schema;
}
bool StreamDecoder::finished() const {
  return state_->step == State::Step::kFinished;
}
size_t StreamDecoder::buffered_bytes() const {
  return state_->buffered;
}

}  // namespace higgins::arrow::ipc

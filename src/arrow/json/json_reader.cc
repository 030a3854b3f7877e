#include "arrow/json/json_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "arrow/json/json_break.h"
#include "arrow/json/json_row_builder.h"
#include "arrow/json/json_text.h"

namespace higgins::arrow::json {
namespace {

namespace od = simdjson::ondemand;

/// Buffers above this size are released after a call instead of kept for the thread's next one.
constexpr size_t kRetainedBytes = size_t{16} << 20;
/// The smallest simdjson batch (document_stream window) asked for.
constexpr size_t kMinBatchBytes = size_t{4} << 10;

/// A parser and a padded input buffer per thread, reused across calls so that small requests do
/// not pay for allocation. ReadJson never re-enters itself, so one per thread suffices.
struct ThreadState {
  od::parser parser;
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;

  /// Copies `bytes` into the buffer followed by SIMDJSON_PADDING zero bytes.
  char* Load(std::string_view bytes) {
    const size_t needed = bytes.size() + simdjson::SIMDJSON_PADDING;
    if (needed > capacity) {
      buffer = std::make_unique<char[]>(needed);
      capacity = needed;
    }
    if (!bytes.empty()) std::memcpy(buffer.get(), bytes.data(), bytes.size());
    std::memset(buffer.get() + bytes.size(), 0, simdjson::SIMDJSON_PADDING);
    return buffer.get();
  }

  void Trim() {
    if (capacity <= kRetainedBytes) return;
    buffer.reset();
    capacity = 0;
    parser = od::parser();
  }
};

ThreadState& State() {
  thread_local ThreadState state;
  return state;
}

/// Where the JSON text starts: after a UTF-8 byte order mark, if any.
size_t ContentStart(std::string_view bytes) {
  return bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

JsonFormat DetectFormat(std::string_view bytes, size_t start) {
  while (start < bytes.size() && IsJsonSpace(bytes[start])) ++start;
  return start < bytes.size() && bytes[start] == '[' ? JsonFormat::kArray : JsonFormat::kNdjson;
}

/// Where non-blank content follows the root array or object of a single document, or nullptr
/// when there is none (or the root does not close). simdjson rejects a root array or object whose
/// input does not end with the matching bracket as "ended early" before reading anything, so
/// this is checked first, on the input's last byte, and the bracket scan runs only then.
/// `*root_end` is set to one past the root's closing bracket. Strings are skipped; everything
/// else is left to simdjson.
const char* TrailingContent(const char* begin, const char* end, const char** root_end) {
  while (begin < end && IsJsonSpace(*begin)) ++begin;
  const char* last = end;
  while (last > begin && IsJsonSpace(last[-1])) --last;
  if (begin == last || (*begin != '[' && *begin != '{')) return nullptr;
  if (last[-1] == (*begin == '[' ? ']' : '}')) return nullptr;
  int64_t depth = 0;
  for (const char* p = begin; p < last; ++p) {
    if (*p == '"') {
      for (++p; p < last && *p != '"'; ++p) {
        if (*p == '\\') ++p;
      }
      if (p >= last) return nullptr;
    } else if (*p == '[' || *p == '{') {
      ++depth;
    } else if ((*p == ']' || *p == '}') && --depth == 0) {
      *root_end = p + 1;
      const char* trailing = p + 1;
      while (trailing < last && IsJsonSpace(*trailing)) ++trailing;
      return trailing < last ? trailing : nullptr;
    }
  }
  return nullptr;
}

/// Up to one line of raw input at `location`, for "expected an object" errors.
std::string ExcerptAt(const char* location, const char* end) {
  const char* line_end = std::find(location, end, '\n');
  return Excerpt(std::string_view(location, static_cast<size_t>(line_end - location)));
}

class Reader {
 public:
  Reader(const SchemaPtr& schema, const JsonReadOptions& options)
      : options_(options), rows_(schema, options.unknown_fields, nullptr, 0) {}

  /// Appends the rows of `input` (its bytes are a padded copy, see ThreadState::Load), read
  /// from byte `start` in `format`.
  Status Run(od::parser* parser, std::string_view input, size_t start, JsonFormat format) {
    data_ = input.data();
    end_ = input.data() + input.size();
    rows_.SetInput(input.data(), input.size());
    return format == JsonFormat::kNdjson ? RunStream(parser, start)
                                         : RunSingle(parser, start, format);
  }

  int64_t num_rows() const { return rows_.num_rows(); }
  /// Reserves room for `input_size` bytes of input like the one read last.
  void ReserveFor(int64_t input_size) { rows_.ReserveFor(input_size, end_); }
  Result<RecordBatch> Finish() { return rows_.Finish(); }

 private:
  /// An error simdjson found scanning the whole input (stage 1), before any row: it has no
  /// position. Capacity problems are ResourceExhausted.
  static Status InputFailure(simdjson::error_code error, size_t size) {
    if (error == simdjson::CAPACITY || error == simdjson::MEMALLOC) {
      return Status::ResourceExhausted("JSON input of " + std::to_string(size) +
                                       " bytes: " + simdjson::error_message(error));
    }
    return Status::InvalidArgument(std::string("malformed JSON: ") +
                                   simdjson::error_message(error));
  }

  /// For an error that says the text ends too soon or its brackets or quotes do not pair: the
  /// error at the byte where the text from `document` (the start of the failing document) on
  /// breaks (json_break.h). nullopt for other errors, or when no break is found.
  std::optional<Status> BrokenText(simdjson::error_code error, const char* document) const {
    if (error != simdjson::INCOMPLETE_ARRAY_OR_OBJECT && error != simdjson::UNCLOSED_STRING &&
        error != simdjson::TAPE_ERROR) {
      return std::nullopt;
    }
    const std::optional<JsonBreak> found =
        FindJsonBreak(std::string_view(document, static_cast<size_t>(end_ - document)));
    if (!found) return std::nullopt;
    return rows_.Malformed(found->what, document + found->offset);
  }

  /// `error` of the document starting at `document`, at `location`.
  // NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (document, location), both in order
  Status DocumentError(simdjson::error_code error, const char* document,
                       const char* location) const {
    if (std::optional<Status> broken = BrokenText(error, document)) return *broken;
    return rows_.Malformed(error, location);
  }

  /// One document: an array of objects or a single object. (iterate() is faster than
  /// iterate_many() for one large document.)
  Status RunSingle(od::parser* parser, size_t start, JsonFormat format) {
    const char* begin = data_ + start;
    const bool array = format == JsonFormat::kArray;
    const char* what = array ? "content after the array" : "more than one JSON value";
    // With content after the root, only the root is parsed (the bytes after it serve as
    // simdjson's padding, whose contents do not matter), so that its rows are read and checked
    // first, as when simdjson finds the trailing content itself.
    const char* root_end = end_;
    const char* trailing = TrailingContent(begin, end_, &root_end);
    const size_t size = static_cast<size_t>(root_end - begin);
    const size_t capacity = static_cast<size_t>(end_ - begin) + simdjson::SIMDJSON_PADDING;
    od::document document;
    const simdjson::padded_string_view view(begin, size, capacity);
    if (auto error = parser->iterate(view).get(document)) {
      if (error == simdjson::EMPTY) {
        return Status::InvalidArgument(array ? "expected a JSON array, got no JSON value"
                                             : "expected one JSON object, got no JSON value");
      }
      if (std::optional<Status> broken = BrokenText(error, begin)) return *broken;
      return InputFailure(error, size);
    }
    if (array) {
      HIGGINS_RETURN_IF_ERROR(ReadArray(document, begin));
    } else {
      HIGGINS_RETURN_IF_ERROR(ReadDocumentRow(document, begin));
    }
    if (trailing != nullptr) return rows_.Malformed(what, trailing);
    if (document.current_location().get(trailing) == simdjson::SUCCESS) {
      return rows_.Malformed(what, trailing);
    }
    return Status::OK();
  }

  /// NDJSON (or any whitespace-separated objects): one row per document.
  Status RunStream(od::parser* parser, size_t start) {
    const size_t size = static_cast<size_t>(end_ - data_) - start;
    // No documents; simdjson 3.0.1 reports nonsense truncated_bytes() for empty input.
    if (std::all_of(data_ + start, end_, IsJsonSpace)) return Status::OK();
    // A power of two: simdjson reallocates its buffers whenever the batch size changes, which
    // for a stream of small payloads of varying sizes would be every call.
    const size_t batch_size = std::bit_ceil(std::max<size_t>(size, kMinBatchBytes));
    od::document_stream stream;
    if (auto error = parser->iterate_many(data_ + start, size, batch_size).get(stream)) {
      return InputFailure(error, size);
    }
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      const char* location = data_ + start + it.current_index();
      od::document_reference document;
      // With one batch for the whole input, stage 1 errors surface at the first document.
      if (auto error = (*it).get(document)) {
        if (std::optional<Status> broken = BrokenText(error, location)) return *broken;
        return InputFailure(error, size);
      }
      HIGGINS_RETURN_IF_ERROR(ReadDocumentRow(document, location));
    }
    // iterate_many silently drops an incomplete last document (and some unbalanced input).
    if (stream.truncated_bytes() != 0) {
      const char* dropped = end_ - stream.truncated_bytes();
      if (std::optional<Status> broken = BrokenText(simdjson::TAPE_ERROR, dropped)) return *broken;
      return rows_.Malformed("incomplete or unbalanced JSON", dropped);
    }
    return Status::OK();
  }

  Status CheckRowLimit() const {
    if (rows_.num_rows() < options_.max_rows) return Status::OK();
    return Status::ResourceExhausted("more than " + std::to_string(options_.max_rows) +
                                     " rows (max_rows)");
  }

  Status NotAnObject(const char* location) const {
    return Status::InvalidArgument("row " + std::to_string(rows_.num_rows()) +
                                   ": expected a JSON object (got " + ExcerptAt(location, end_) +
                                   ")");
  }

  template <typename Document>
  Status ReadDocumentRow(Document& document, const char* location) {
    HIGGINS_RETURN_IF_ERROR(CheckRowLimit());
    od::json_type kind;
    if (auto error = document.type().get(kind)) return DocumentError(error, location, location);
    if (kind != od::json_type::object) return NotAnObject(location);
    od::object object;
    if (auto error = document.get_object().get(object)) {
      return DocumentError(error, location, location);
    }
    return rows_.AppendObject(object, location);
  }

  Status ReadArray(od::document& document, const char* begin) {
    const char* location = begin;
    od::json_type kind;
    if (auto error = document.type().get(kind)) return DocumentError(error, begin, location);
    if (kind != od::json_type::array) {
      return Status::InvalidArgument("expected a JSON array of objects (got " +
                                     ExcerptAt(location, end_) + ")");
    }
    od::array array;
    if (auto error = document.get_array().get(array)) {
      return DocumentError(error, begin, location);
    }
    for (auto element : array) {
      od::value value;
      if (auto error = element.get(value)) return DocumentError(error, begin, location);
      HIGGINS_RETURN_IF_ERROR(CheckRowLimit());
      location = value.raw_json_token().data();
      od::json_type element_kind;
      if (auto error = value.type().get(element_kind)) {
        return DocumentError(error, begin, location);
      }
      if (element_kind != od::json_type::object) return NotAnObject(location);
      od::object object;
      if (auto error = value.get_object().get(object)) {
        return DocumentError(error, begin, location);
      }
      HIGGINS_RETURN_IF_ERROR(rows_.AppendObject(object, location));
    }
    return Status::OK();
  }

  JsonReadOptions options_;
  const char* data_ = nullptr;
  const char* end_ = nullptr;
  JsonRowBuilder rows_;
};

/// Appends `bytes` to `reader` with the thread's parser and buffer.
Status AppendTo(Reader* reader, std::string_view bytes, JsonFormat requested) {
  ThreadState& state = State();
  const char* data = state.Load(bytes);
  const size_t start = ContentStart(bytes);
  const JsonFormat format = requested == JsonFormat::kAuto ? DetectFormat(bytes, start) : requested;
  Status status = reader->Run(&state.parser, {data, bytes.size()}, start, format);
  state.Trim();
  return status;
}

}  // namespace

struct JsonBatchReader::Impl {
  Impl(const SchemaPtr& schema, const JsonReadOptions& options)
      : format(options.format), reader(schema, options) {}
  JsonFormat format;
  Reader reader;
  size_t expected_bytes = 0;
  bool first = true;
};

JsonBatchReader::JsonBatchReader(const SchemaPtr& schema, const JsonReadOptions& options)
    : impl_(std::make_unique<Impl>(schema, options)) {}

JsonBatchReader::~JsonBatchReader() = default;

void JsonBatchReader::ExpectBytes(size_t bytes) {
  impl_->expected_bytes = bytes;
}

Status JsonBatchReader::Append(std::string_view bytes) {
  HIGGINS_RETURN_IF_ERROR(AppendTo(&impl_->reader, bytes, impl_->format));
  if (impl_->first && !bytes.empty() && impl_->expected_bytes > bytes.size()) {
    impl_->reader.ReserveFor(static_cast<int64_t>(impl_->expected_bytes));
  }
  impl_->first = false;
  return Status::OK();
}

int64_t JsonBatchReader::num_rows() const {
  return impl_->reader.num_rows();
}

Result<RecordBatch> JsonBatchReader::Finish() {
  return impl_->reader.Finish();
}

Result<RecordBatch> ReadJson(std::string_view bytes, const SchemaPtr& schema,
                             const JsonReadOptions& options) {
  Reader reader(schema, options);
  HIGGINS_RETURN_IF_ERROR(AppendTo(&reader, bytes, options.format));
  return reader.Finish();
}

}  // namespace higgins::arrow::json

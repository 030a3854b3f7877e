#include "workload.h"

#include <algorithm>

namespace higgins::bench {
namespace {

/// Round-robin (each connection starting elsewhere) or uniform choice of keys.
class KeyPicker {
 public:
  KeyPicker(uint32_t keys, KeyChoice choice, int connection)
      : keys_(keys),
        choice_(choice),
        next_(static_cast<uint32_t>(connection) * 7919u % keys),
        rng_(0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(connection)) {}

  uint32_t Next() {
    if (choice_ == KeyChoice::kUniform) {
      return static_cast<uint32_t>(std::uniform_int_distribution<uint32_t>(0, keys_ - 1)(rng_));
    }
    const uint32_t k = next_;
    next_ = next_ + 1 == keys_ ? 0 : next_ + 1;
    return k;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  uint32_t keys_;
  KeyChoice choice_;
  uint32_t next_;
  std::mt19937_64 rng_;
};

class ProduceSource final : public BatchSource {
 public:
  ProduceSource(const KeyPicker& picker, uint32_t rows, std::shared_ptr<RequestBudget> budget,
                std::shared_ptr<std::atomic<uint64_t>> seq)
      : picker_(picker), rows_(rows), budget_(std::move(budget)), seq_(std::move(seq)) {}

  bool Next(Batch* batch) override {
    if (!budget_->Take()) return false;
    uint64_t seq = seq_->fetch_add(rows_, std::memory_order_relaxed);
    for (uint32_t i = 0; i < rows_; ++i) batch->rows.push_back({picker_.Next(), seq++});
    return true;
  }

 private:
  KeyPicker picker_;
  uint32_t rows_;
  std::shared_ptr<RequestBudget> budget_;
  std::shared_ptr<std::atomic<uint64_t>> seq_;
};

/// What PrefillSources writes: `total` rows, row i with key i % `keys`, `rows` per request.
struct PrefillPlan {
  uint32_t keys = 1;
  uint64_t total = 0;
  uint32_t rows = 1;
};

class PrefillSource final : public BatchSource {
 public:
  PrefillSource(const PrefillPlan& plan, std::shared_ptr<std::atomic<uint64_t>> cursor)
      : keys_(plan.keys), total_(plan.total), rows_(plan.rows), cursor_(std::move(cursor)) {}

  bool Next(Batch* batch) override {
    const uint64_t first = cursor_->fetch_add(rows_, std::memory_order_relaxed);
    if (first >= total_) return false;
    const uint64_t end = std::min(total_, first + rows_);
    for (uint64_t i = first; i < end; ++i) {
      batch->rows.push_back({static_cast<uint32_t>(i % keys_), i});
    }
    return true;
  }

 private:
  uint32_t keys_;
  uint64_t total_;
  uint32_t rows_;
  std::shared_ptr<std::atomic<uint64_t>> cursor_;
};

class QuerySource final : public BatchSource {
 public:
  QuerySource(std::shared_ptr<const Catalog> catalog, std::vector<uint32_t> keys, uint32_t queries,
              KeyChoice choice, int connection, std::shared_ptr<RequestBudget> budget)
      : catalog_(std::move(catalog)),
        keys_(std::move(keys)),
        picker_(static_cast<uint32_t>(keys_.size()), choice, connection),
        queries_(queries),
        budget_(std::move(budget)) {}

  bool Next(Batch* batch) override {
    if (!budget_->Take()) return false;
    for (uint32_t i = 0; i < queries_; ++i) {
      const uint32_t key = keys_[picker_.Next()];
      const auto& positions = catalog_->positions[key];
      std::uniform_int_distribution<size_t> pick(0, positions.size() - 1);
      batch->queries.push_back({key, positions[pick(picker_.rng())]});
    }
    return true;
  }

 private:
  std::shared_ptr<const Catalog> catalog_;
  std::vector<uint32_t> keys_;  // keys holding at least one row
  KeyPicker picker_;
  uint32_t queries_;
  std::shared_ptr<RequestBudget> budget_;
};

class PingSource final : public BatchSource {
 public:
  explicit PingSource(std::shared_ptr<RequestBudget> budget) : budget_(std::move(budget)) {}
  bool Next(Batch*) override { return budget_->Take(); }

 private:
  std::shared_ptr<RequestBudget> budget_;
};

}  // namespace

std::shared_ptr<WorkloadShape> MakeShape(const ShapeOptions& options) {
  auto shape = std::make_shared<WorkloadShape>();
  shape->stream = options.stream;
  shape->arrow = options.arrow;
  shape->keys.reserve(options.keys);
  for (uint32_t k = 0; k < options.keys; ++k) shape->keys.push_back("k" + std::to_string(k));
  // {"id":"","seq":,"payload":""} and a newline: 30 bytes, plus the key and ~7 digits of seq.
  const size_t overhead = 30 + shape->keys.back().size() + 7;
  const size_t length = options.record_bytes > overhead ? options.record_bytes - overhead : 1;
  static constexpr std::string_view kFiller = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (size_t i = 0; i < length; ++i) shape->payload.push_back(kFiller[i % kFiller.size()]);
  return shape;
}

SourceFactory ProduceSources(uint32_t keys, uint32_t rows_per_request, KeyChoice choice,
                             std::shared_ptr<RequestBudget> budget) {
  auto seq = std::make_shared<std::atomic<uint64_t>>(0);
  return [=, budget = std::move(budget)](int connection) {
    return std::make_unique<ProduceSource>(KeyPicker(keys, choice, connection), rows_per_request,
                                           budget, seq);
  };
}

SourceFactory PrefillSources(uint32_t keys, uint64_t total_rows, uint32_t rows_per_request) {
  auto cursor = std::make_shared<std::atomic<uint64_t>>(0);
  const PrefillPlan plan{.keys = keys, .total = total_rows, .rows = rows_per_request};
  return [=](int) { return std::make_unique<PrefillSource>(plan, cursor); };
}

Catalog::Catalog(uint32_t keys, const std::vector<std::pair<uint32_t, Position>>& produced)
    : positions(keys) {
  for (const auto& [key, position] : produced) {
    if (key < keys) {
      positions[key].push_back(position);
      ++size;
    }
  }
}

SourceFactory QuerySources(std::shared_ptr<const Catalog> catalog, uint32_t queries_per_request,
                           KeyChoice choice, std::shared_ptr<RequestBudget> budget) {
  std::vector<uint32_t> keys;
  for (uint32_t k = 0; k < catalog->positions.size(); ++k) {
    if (!catalog->positions[k].empty()) keys.push_back(k);
  }
  return [=, catalog = std::move(catalog), budget = std::move(budget)](int connection) {
    return std::make_unique<QuerySource>(catalog, keys, queries_per_request, choice, connection,
                                         budget);
  };
}

SourceFactory PingSources(std::shared_ptr<RequestBudget> budget) {
  return [budget = std::move(budget)](int) { return std::make_unique<PingSource>(budget); };
}

}  // namespace higgins::bench

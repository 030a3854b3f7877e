#include "arrow/json/field_index.h"

namespace higgins::arrow::json {
namespace {

uint64_t Hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

FieldIndex::FieldIndex(const Schema& schema) {
  size_t size = 8;
  while (size < schema.num_fields() * 2) size *= 2;
  table_.assign(size, -1);
  names_.reserve(schema.num_fields());
  first_.reserve(schema.num_fields());
  for (size_t i = 0; i < schema.num_fields(); ++i) {
    const std::string_view name = schema.field(i).name;
    names_.push_back(name);
    const bool first = Probe(name) < 0;
    first_.push_back(first);
    if (!first) continue;
    size_t slot = Hash(name) & (table_.size() - 1);
    while (table_[slot] >= 0) slot = (slot + 1) & (table_.size() - 1);
    table_[slot] = static_cast<int32_t>(i);
  }
}

int FieldIndex::Probe(std::string_view name) const {
  size_t slot = Hash(name) & (table_.size() - 1);
  while (table_[slot] >= 0) {
    if (names_[static_cast<size_t>(table_[slot])] == name) return table_[slot];
    slot = (slot + 1) & (table_.size() - 1);
  }
  return -1;
}

}  // namespace higgins::arrow::json

#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "higgins/arrow/schema.h"

namespace higgins::arrow::json {

/// Maps names to schema field indexes without allocating per lookup. Records usually list their
/// keys in schema order, so a lookup first tries a guess (the field after the previous match),
/// then an open-addressing hash table. With duplicate field names the first field wins.
/// Holds views of the schema's names: the schema must outlive it.
class FieldIndex {
 public:
  explicit FieldIndex(const Schema& schema);

  /// The index of the field named `name`, or -1. `guess` may be any value.
  int Find(std::string_view name, int guess) const {
    if (guess >= 0 && static_cast<size_t>(guess) < names_.size() && names_[guess] == name &&
        first_[guess]) {
      return guess;
    }
    return Probe(name);
  }

 private:
  int Probe(std::string_view name) const;

  std::vector<std::string_view> names_;
  std::vector<bool> first_;     // not shadowed by an earlier field of the same name
  std::vector<int32_t> table_;  // power-of-two size; -1 marks an empty slot
};

}  // namespace higgins::arrow::json

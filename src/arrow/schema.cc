#include "higgins/arrow/schema.h"

namespace higgins::arrow {

std::string Field::ToString() const {
  std::string s = name + ": " + type.ToString();
  if (!nullable) s += " not null";
  return s;
}

std::optional<size_t> Schema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return std::nullopt;
}

Status Schema::Validate() const {
  for (const Field& f : fields_) {
    Status st = f.type.Validate();
    if (!st.ok()) return st.WithContext("field '" + f.name + "'");
  }
  return Status::OK();
}

std::string Schema::ToString() const {
  std::string s;
  for (const Field& f : fields_) {
    s += f.ToString();
    s += '\n';
  }
  return s;
}

}  // namespace higgins::arrow

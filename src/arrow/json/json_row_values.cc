// The general path of JsonRowBuilder: values the fast path does not take (nulls, numbers and
// strings for every type through ValueParser, wrong kinds of values), validation of ignored
// values, and the error messages.
#include <string>

#include "arrow/json/json_row_builder.h"
#include "arrow/json/json_text.h"

namespace higgins::arrow::json {
namespace {

namespace od = simdjson::ondemand;

constexpr int kMaxSkipDepth = 1024;

/// An excerpt of an object or array value for error messages.
std::string CompoundExcerpt(od::value value, od::json_type kind) {
  std::string_view raw;
  simdjson::error_code error = simdjson::SUCCESS;
  if (kind == od::json_type::object) {
    od::object object;
    error = value.get_object().get(object);
    if (!error) error = object.raw_json().get(raw);
  } else {
    od::array array;
    error = value.get_array().get(array);
    if (!error) error = array.raw_json().get(raw);
  }
  return error ? std::string(kind == od::json_type::object ? "an object" : "an array")
               : Excerpt(raw);
}

}  // namespace

Status JsonRowBuilder::Malformed(std::string_view what, const char* location) const {
  std::string message = "row " + std::to_string(num_rows_) + ": malformed JSON";
  if (location != nullptr) message += " near byte " + std::to_string(location - input_);
  message += ": ";
  message += what;
  return Status::InvalidArgument(std::move(message));
}

Status JsonRowBuilder::Malformed(simdjson::error_code error, const char* location) const {
  return Malformed(simdjson::error_message(error), location);
}

Status JsonRowBuilder::InvalidLiteral(od::value value) const {
  const std::string_view token = ScalarToken(value.raw_json_token());
  return Malformed("invalid literal '" + Excerpt(token) + "'", token.data());
}

Status JsonRowBuilder::FieldError(int index, const Status& status) const {
  return status.WithContext("row " + std::to_string(num_rows_) + ", field '" +
                            schema_->field(static_cast<size_t>(index)).name + "'");
}

Status JsonRowBuilder::KeyError(std::string_view key, std::string_view what) const {
  return Status::InvalidArgument("row " + std::to_string(num_rows_) + ", field '" + Excerpt(key) +
                                 "': " + std::string(what));
}

Status JsonRowBuilder::AppendField(int index, od::value value) {
  od::json_type kind;
  if (auto error = value.type().get(kind)) {
    return Malformed(error, value.raw_json_token().data());
  }
  if (kind != od::json_type::null) return AppendNonNull(index, kind, value);
  bool is_null = false;
  if (value.is_null().get(is_null) || !is_null) return InvalidLiteral(value);
  if (!columns_[static_cast<size_t>(index)].nullable) {
    return FieldError(index, Status::InvalidArgument("null for a non-nullable field"));
  }
  columns_[static_cast<size_t>(index)].builder.AppendNull();
  return Status::OK();
}

Status JsonRowBuilder::AppendNonNull(int index, od::json_type kind, od::value value) {
  ArrayBuilder* builder = &columns_[static_cast<size_t>(index)].builder;
  switch (kind) {
    case od::json_type::number: {
      const std::string_view token = ScalarToken(value.raw_json_token());
      Status status = parser_.AppendNumber(builder, token);
      if (status.ok()) return status;
      if (!IsJsonNumber(token)) {
        return Malformed("invalid number '" + Excerpt(token) + "'", token.data());
      }
      return FieldError(index, status);
    }
    case od::json_type::string: {
      const char* location = value.raw_json_token().data();
      std::string_view text;
      if (auto error = value.get_string().get(text)) return Malformed(error, location);
      Status status = parser_.AppendString(builder, text);
      return status.ok() ? status : FieldError(index, status);
    }
    case od::json_type::boolean: {
      bool flag = false;
      if (value.get_bool().get(flag)) return InvalidLiteral(value);
      Status status = parser_.AppendBool(builder, flag);
      return status.ok() ? status : FieldError(index, status);
    }
    case od::json_type::object:
    case od::json_type::array:
      return FieldError(index, WrongKind(builder->type(), CompoundExcerpt(value, kind)));
    case od::json_type::null: break;
  }
  return Status::Internal("unexpected JSON value kind");
}

Status JsonRowBuilder::SkipValue(od::value value, int depth) {
  const char* location = value.raw_json_token().data();
  if (depth > kMaxSkipDepth) return Malformed("nesting too deep", location);
  od::json_type kind;
  if (auto error = value.type().get(kind)) return Malformed(error, location);
  simdjson::error_code error = simdjson::SUCCESS;
  switch (kind) {
    case od::json_type::object: {
      od::object object;
      if ((error = value.get_object().get(object))) break;
      for (auto field_result : object) {
        od::field field;
        if ((error = std::move(field_result).get(field))) break;
        std::string_view key;
        if ((error = field.unescaped_key().get(key))) break;
        HIGGINS_RETURN_IF_ERROR(SkipValue(field.value(), depth + 1));
      }
      break;
    }
    case od::json_type::array: {
      od::array array;
      if ((error = value.get_array().get(array))) break;
      for (auto element : array) {
        od::value item;
        if ((error = element.get(item))) break;
        HIGGINS_RETURN_IF_ERROR(SkipValue(item, depth + 1));
      }
      break;
    }
    case od::json_type::number: {
      const std::string_view token = ScalarToken(value.raw_json_token());
      if (!IsJsonNumber(token))
        return Malformed("invalid number '" + Excerpt(token) + "'", location);
      break;
    }
    case od::json_type::string: {
      std::string_view text;
      error = value.get_string().get(text);
      break;
    }
    case od::json_type::boolean: {
      bool flag = false;
      if (value.get_bool().get(flag)) return InvalidLiteral(value);
      break;
    }
    case od::json_type::null: {
      bool is_null = false;
      if (value.is_null().get(is_null) || !is_null) return InvalidLiteral(value);
      break;
    }
  }
  return error ? Malformed(error, location) : Status::OK();
}

}  // namespace higgins::arrow::json

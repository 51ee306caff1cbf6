//===- Json.h - Minimal JSON reader for bundle manifests --------*- C++ -*-===//
//
// A small, dependency-free recursive-descent JSON parser. It keeps integer
// literals exact (int64) and records the byte range of every value in the
// source text, which the bundle hash needs (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_JSON_H
#define FF_RUNTIME_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ff::rt {

/// One JSON value. Objects keep their members in source order; duplicate keys
/// are a parse error.
class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0.0;
  /// True when the number literal is an integer that fits in int64.
  bool isInteger = false;
  int64_t integer = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> members;
  /// Byte range [begin, end) of this value in the parsed text.
  size_t begin = 0, end = 0;

  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  /// Member lookup; nullptr when absent or when this is not an object.
  const JsonValue *get(std::string_view key) const;

  /// Kind name for diagnostics ("string", "object", ...).
  static const char *kindName(Kind kind);
};

/// Parses `text` as one JSON document (RFC 8259). On failure returns false and
/// sets `error` to "line L, column C: <what>".
bool parseJson(std::string_view text, JsonValue &out, std::string &error);

/// Serializes a string as a JSON string literal (with quotes and escapes).
std::string jsonQuote(std::string_view s);

} // namespace ff::rt

#endif // FF_RUNTIME_JSON_H

//===- Json.cpp - Minimal JSON reader -------------------------------------===//

#include "ff/Runtime/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

using namespace ff::rt;

const JsonValue *JsonValue::get(std::string_view key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (const auto &[k, v] : members)
    if (k == key)
      return &v;
  return nullptr;
}

const char *JsonValue::kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "boolean";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

namespace {
class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  bool parseDocument(JsonValue &out, std::string &error) {
    skipWs();
    if (!parseValue(out, 0))
      return report(error);
    skipWs();
    if (pos != text.size()) {
      fail("trailing characters after the document");
      return report(error);
    }
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;
  std::string_view text;
  size_t pos = 0;
  std::string message;
  size_t errorPos = 0;

  bool report(std::string &error) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < errorPos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error = "line " + std::to_string(line) + ", column " + std::to_string(col) +
            ": " + message;
    return false;
  }

  bool fail(const std::string &what) {
    if (message.empty()) {
      message = what;
      errorPos = pos;
    }
    return false;
  }

  void skipWs() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consumeLiteral(std::string_view lit) {
    if (text.substr(pos, lit.size()) != lit)
      return fail("invalid literal");
    pos += lit.size();
    return true;
  }

  bool parseValue(JsonValue &v, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than 64 levels");
    if (pos >= text.size())
      return fail("unexpected end of input");
    v.begin = pos;
    bool ok;
    switch (text[pos]) {
    case '{':
      ok = parseObject(v, depth);
      break;
    case '[':
      ok = parseArray(v, depth);
      break;
    case '"':
      v.kind = JsonValue::Kind::String;
      ok = parseString(v.string);
      break;
    case 't':
      v.kind = JsonValue::Kind::Bool;
      v.boolean = true;
      ok = consumeLiteral("true");
      break;
    case 'f':
      v.kind = JsonValue::Kind::Bool;
      v.boolean = false;
      ok = consumeLiteral("false");
      break;
    case 'n':
      v.kind = JsonValue::Kind::Null;
      ok = consumeLiteral("null");
      break;
    default:
      ok = parseNumber(v);
      break;
    }
    v.end = pos;
    return ok;
  }

  bool parseObject(JsonValue &v, int depth) {
    v.kind = JsonValue::Kind::Object;
    ++pos; // '{'
    skipWs();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipWs();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key");
      std::string key;
      size_t keyPos = pos;
      if (!parseString(key))
        return false;
      if (v.get(key)) {
        pos = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      skipWs();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after a key");
      ++pos;
      skipWs();
      JsonValue member;
      if (!parseValue(member, depth + 1))
        return false;
      v.members.emplace_back(std::move(key), std::move(member));
      skipWs();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in an object");
    }
  }

  bool parseArray(JsonValue &v, int depth) {
    v.kind = JsonValue::Kind::Array;
    ++pos; // '['
    skipWs();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipWs();
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      v.array.push_back(std::move(element));
      skipWs();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in an array");
    }
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(uint32_t &cp) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      cp <<= 4;
      if (c >= '0' && c <= '9')
        cp |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        cp |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        cp |= uint32_t(c - 'A' + 10);
      else
        return fail("invalid \\u escape");
    }
    return true;
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      if (pos >= text.size())
        return fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t lo;
          if (text.substr(pos, 2) != "\\u")
            return fail("unpaired surrogate");
          pos += 2;
          if (!parseHex4(lo))
            return false;
          if (lo < 0xDC00 || lo >= 0xE000)
            return fail("invalid low surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return fail("unpaired surrogate");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail("invalid escape");
      }
    }
  }

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  bool parseNumber(JsonValue &v) {
    v.kind = JsonValue::Kind::Number;
    size_t start = pos;
    bool integral = true;
    if (pos < text.size() && text[pos] == '-')
      ++pos;
    if (pos >= text.size() || !isDigit(text[pos]))
      return fail("invalid value");
    if (text[pos] == '0') {
      ++pos;
      if (pos < text.size() && isDigit(text[pos]))
        return fail("leading zero in a number");
    } else {
      while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    }
    if (pos < text.size() && text[pos] == '.') {
      integral = false;
      ++pos;
      if (pos >= text.size() || !isDigit(text[pos]))
        return fail("digit expected after '.'");
      while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      integral = false;
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (pos >= text.size() || !isDigit(text[pos]))
        return fail("digit expected in an exponent");
      while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    }
    std::string lit(text.substr(start, pos - start));
    v.number = std::strtod(lit.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long i = std::strtoll(lit.c_str(), nullptr, 10);
      if (errno == 0) {
        v.isInteger = true;
        v.integer = i;
      }
    }
    return true;
  }
};
} // namespace

bool ff::rt::parseJson(std::string_view text, JsonValue &out,
                       std::string &error) {
  out = JsonValue();
  Parser parser(text);
  return parser.parseDocument(out, error);
}

std::string ff::rt::jsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += c;
      }
    }
  }
  out += '"';
  return out;
}

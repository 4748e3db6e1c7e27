#include "json.h"

#include <cmath>
#include <cstdio>

namespace dbg {

std::string JsonQuote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void JsonObject::Key(const char* key) {
  if (body_.size() > 1) body_ += ",";
  body_ += JsonQuote(key);
  body_ += ":";
}

JsonObject& JsonObject::Str(const char* key, const std::string& value) { Key(key); body_ += JsonQuote(value); return *this; }
JsonObject& JsonObject::Int(const char* key, int64_t value) { Key(key); body_ += std::to_string(value); return *this; }
JsonObject& JsonObject::Bool(const char* key, bool value) { Key(key); body_ += value ? "true" : "false"; return *this; }
JsonObject& JsonObject::Raw(const char* key, const std::string& value) { Key(key); body_ += value; return *this; }
JsonObject& JsonObject::Num(const char* key, double value) {
  Key(key);
  if (!std::isfinite(value)) { body_ += "null"; return *this; }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  body_ += buf;
  return *this;
}

}  // namespace dbg

// A tiny JSON object writer: events and results cross to JavaScript as JSON text, so the addon needs
// no N-API code off the JS thread and the TypeScript side owns the shapes.
#pragma once

#include <cstdint>
#include <string>

namespace dbg {

class JsonObject {
 public:
  JsonObject& Str(const char* key, const std::string& value);
  JsonObject& Num(const char* key, double value);
  JsonObject& Int(const char* key, int64_t value);
  JsonObject& Bool(const char* key, bool value);
  /** `value` must already be JSON (an array or object built by the caller). */
  JsonObject& Raw(const char* key, const std::string& value);
  std::string Done() const { return body_ + "}"; }

 private:
  void Key(const char* key);
  std::string body_ = "{";
};

std::string JsonQuote(const std::string& text);

}  // namespace dbg

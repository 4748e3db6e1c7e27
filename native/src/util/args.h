// Arguments of a command, copied from the JavaScript object on the JS thread so the debugger thread
// reads plain C++ values: numbers, booleans, strings, lists and nested objects.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dbg {

class Args {
 public:
  enum class Kind { Missing, Number, Bool, String, List, Object };

  Args() = default;
  static Args Number(double v) { Args a; a.kind_ = Kind::Number; a.number_ = v; return a; }
  static Args Boolean(bool v) { Args a; a.kind_ = Kind::Bool; a.bool_ = v; return a; }
  static Args String(std::string v) { Args a; a.kind_ = Kind::String; a.string_ = std::move(v); return a; }
  static Args List(std::vector<Args> items) { Args a; a.kind_ = Kind::List; a.items_ = std::move(items); return a; }
  static Args Object(std::vector<std::pair<std::string, Args>> fields) {
    Args a; a.kind_ = Kind::Object; a.fields_ = std::move(fields); return a;
  }

  Kind kind() const { return kind_; }
  const Args& operator[](const char* key) const;
  const std::vector<Args>& Items() const { return items_; }

  int64_t Int(int64_t fallback = 0) const { return kind_ == Kind::Number ? static_cast<int64_t>(number_) : fallback; }
  uint32_t Uint(uint32_t fallback = 0) const { return kind_ == Kind::Number ? static_cast<uint32_t>(number_) : fallback; }
  bool Bool(bool fallback = false) const { return kind_ == Kind::Bool ? bool_ : fallback; }
  const std::string& Str() const { return string_; }
  bool Has() const { return kind_ != Kind::Missing; }

 private:
  Kind kind_ = Kind::Missing;
  double number_ = 0;
  bool bool_ = false;
  std::string string_;
  std::vector<Args> items_;
  std::vector<std::pair<std::string, Args>> fields_;
};

inline const Args& Args::operator[](const char* key) const {
  static const Args missing;
  for (const auto& field : fields_) {
    if (field.first == key) return field.second;
  }
  return missing;
}

}  // namespace dbg

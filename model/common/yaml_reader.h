// Strict reading of YAML documents (yaml-cpp) for input files: every value knows its file,
// line, column and key path, so that every error is "FILE:LINE:COL: error: KEY: message"
// (simtlm::InputError). Mappings reject unknown and repeated keys; scalars are range-checked.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace simtlm::yaml {

// A place in an input file, kept so that errors found later (at run time) can point back.
struct Where {
  std::string file;
  int line = 0, col = 0;  // 1-based; 0: the file as a whole
};

[[noreturn]] void fail(const Where& w, const std::string& message);

// A value in a document with its key path ("launches[1].grid").
class Value {
 public:
  Value(YAML::Node node, std::string path, std::shared_ptr<const std::string> file, Where fallback);

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  Where where() const;
  // Throws InputError at this value: "PATH: message".
  [[noreturn]] void fail(const std::string& message) const;

  bool isNull() const { return node_.IsNull(); }
  bool isScalar() const { return node_.IsScalar(); }
  bool isSequence() const { return node_.IsSequence(); }
  bool isMap() const { return node_.IsMap(); }

  std::string str() const;   // a scalar (a number or a string)
  std::string name() const;  // a scalar matching [A-Za-z_][A-Za-z0-9_.-]*
  int64_t integer(int64_t lo, int64_t hi) const;  // decimal or 0x hex, within [lo, hi]
  double number() const;     // a finite or infinite float (.inf, .nan accepted)
  bool boolean() const;
  // True when the scalar is written as an integer (no '.', exponent, inf or nan).
  bool looksInteger() const;

  std::vector<Value> items() const;  // a sequence
  Value item(size_t i, const YAML::Node& n) const;
  Value child(const std::string& key, const YAML::Node& value, const YAML::Node& keyNode) const;

 private:
  YAML::Node node_;
  std::string path_;
  std::shared_ptr<const std::string> file_;
  Where fallback_;  // where to point when the node carries no mark (an empty value)
};

// A mapping whose keys are checked against `known` (unknown or repeated keys are errors).
class Map {
 public:
  Map(const Value& v, std::vector<std::string> known);

  bool has(const std::string& key) const;
  Value get(const std::string& key) const;  // required: a missing key is an error
  std::optional<Value> opt(const std::string& key) const;
  const Value& value() const { return v_; }
  // The keys in document order with their values.
  const std::vector<std::pair<std::string, Value>>& entries() const { return entries_; }
  // Exactly one of `keys` must be present; returns it.
  std::string oneOf(const std::vector<std::string>& keys) const;

 private:
  Value v_;
  std::vector<std::pair<std::string, Value>> entries_;
};

// Parses `text` (one YAML document). Syntax errors become InputError at their mark.
Value parseDocument(const std::string& text, const std::string& fileName);

// The candidate closest to `name` (edit distance at most 1..3, by its length), or "".
std::string nearest(const std::string& name, const std::vector<std::string>& candidates);
// "a, b or c".
std::string listNames(const std::vector<std::string>& names);

}  // namespace simtlm::yaml

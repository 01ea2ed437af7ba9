#include "model/common/yaml_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "isa/diagnostics.h"

namespace simtlm::yaml {

void fail(const Where& w, const std::string& message) { throw InputError(w.file, w.line, w.col, message); }

std::string listNames(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

std::string nearest(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestD = std::min<size_t>(3, std::max<size_t>(1, name.size() / 3)) + 1;
  for (const auto& c : candidates) {
    std::vector<size_t> row(c.size() + 1);
    for (size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= name.size() && name.size() <= 64; ++i) {
      size_t prev = row[0];
      row[0] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        size_t cur = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (name[i - 1] != c[j - 1])});
        prev = cur;
      }
    }
    if (name.size() <= 64 && row[c.size()] < bestD) bestD = row[c.size()], best = c;
  }
  return best;
}

namespace {

Where whereOf(const YAML::Mark& m, const std::string& file, const Where& fallback) {
  if (m.line < 0 || m.column < 0) return fallback;
  return {file, m.line + 1, m.column + 1};
}

std::string quoted(const std::string& s) {
  std::string q = s.size() > 40 ? s.substr(0, 40) + "..." : s;
  return "'" + q + "'";
}

}  // namespace

Value::Value(YAML::Node node, std::string path, std::shared_ptr<const std::string> file, Where fallback)
    : node_(std::move(node)), path_(std::move(path)), file_(std::move(file)), fallback_(std::move(fallback)) {}

Where Value::where() const {
  if (!node_.IsDefined()) return fallback_;
  return whereOf(node_.Mark(), *file_, fallback_);
}

void Value::fail(const std::string& message) const {
  yaml::fail(where(), (path_.empty() ? "" : path_ + ": ") + message);
}

std::string Value::str() const {
  if (isNull()) fail("expected a value, found nothing");
  if (!isScalar()) fail(std::string("expected a single value, found a ") + (isMap() ? "mapping" : "list"));
  return node_.Scalar();
}

std::string Value::name() const {
  std::string s = str();
  bool ok = !s.empty() && s.size() <= 64 && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-');
  if (!ok) fail("expected a name ([A-Za-z_][A-Za-z0-9_.-]*, at most 64 characters), found " + quoted(s));
  return s;
}

bool Value::looksInteger() const {
  if (!isScalar()) return false;
  const std::string& s = node_.Scalar();
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) return true;
  if (i >= s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
  return true;
}

int64_t Value::integer(int64_t lo, int64_t hi) const {
  std::string s = str();
  std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!looksInteger()) fail("expected an integer in " + range + ", found " + quoted(s));
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  bool hex = s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
  std::string digits = s.substr(i + (hex ? 2 : 0));
  errno = 0;
  char* end = nullptr;
  unsigned long long mag = std::strtoull(digits.c_str(), &end, hex ? 16 : 10);
  if (digits.empty() || *end != '\0' || digits[0] == '-' || digits[0] == '+')
    fail("expected an integer in " + range + ", found " + quoted(s));
  bool neg = s[0] == '-';
  if (errno == ERANGE || mag > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()))
    fail(quoted(s) + " is outside " + range);
  int64_t v = neg ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  if (v < lo || v > hi) fail(s + " is outside " + range);
  return v;
}

double Value::number() const {
  std::string s = str();
  std::string t = s;
  bool neg = !t.empty() && t[0] == '-';
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t = t.substr(1);
  if (t == ".inf" || t == ".Inf" || t == ".INF")
    return neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if ((t == ".nan" || t == ".NaN" || t == ".NAN") && s == t) return std::numeric_limits<double>::quiet_NaN();
  if (looksInteger()) return static_cast<double>(integer(-(int64_t{1} << 53), int64_t{1} << 53));
  bool ok = !t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '.');
  for (char c : t) ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+');
  char* end = nullptr;
  double v = ok ? std::strtod(s.c_str(), &end) : 0.0;
  if (!ok || *end != '\0') fail("expected a number, found " + quoted(s));
  if (!std::isfinite(v)) fail(quoted(s) + " is too large (write .inf for infinity)");
  return v;
}

bool Value::boolean() const {
  std::string s = str();
  if (s == "true" || s == "True" || s == "yes") return true;
  if (s == "false" || s == "False" || s == "no") return false;
  fail("expected true or false, found " + quoted(s));
}

std::vector<Value> Value::items() const {
  if (!isSequence()) fail(isNull() ? "expected a list, found nothing" : "expected a list");
  std::vector<Value> out;
  size_t i = 0;
  for (const auto& n : node_) out.push_back(item(i++, n));
  return out;
}

Value Value::item(size_t i, const YAML::Node& n) const {
  return Value(n, path_ + "[" + std::to_string(i) + "]", file_, where());
}

Value Value::child(const std::string& key, const YAML::Node& value, const YAML::Node& keyNode) const {
  Where at = whereOf(keyNode.Mark(), *file_, where());
  return Value(value, path_.empty() ? key : path_ + "." + key, file_, at);
}

Map::Map(const Value& v, std::vector<std::string> known) : v_(v) {
  if (!v.isMap()) v.fail(v.isNull() ? "expected a mapping (key: value lines), found nothing" : "expected a mapping (key: value lines)");
  std::vector<std::pair<std::string, Where>> seen;
  for (const auto& kv : v.node()) {
    Where at = whereOf(kv.first.Mark(), v.where().file, v.where());
    if (!kv.first.IsScalar()) yaml::fail(at, (v.path().empty() ? "" : v.path() + ": ") + "a key must be a plain name");
    std::string key = kv.first.Scalar();
    std::string full = v.path().empty() ? key : v.path() + "." + key;
    for (const auto& [k, w] : seen)
      if (k == key) yaml::fail(at, full + ": given twice (first on line " + std::to_string(w.line) + ")");
    seen.push_back({key, at});
    bool ok = known.empty();
    for (const auto& k : known) ok = ok || k == key;
    if (!ok) {
      std::string near = nearest(key, known);
      yaml::fail(at, (v.path().empty() ? "" : v.path() + ": ") + "unknown key '" + key.substr(0, 40) + "'" +
                         (near.empty() ? "" : "; did you mean '" + near + "'?") + " (known: " + listNames(known) + ")");
    }
    entries_.emplace_back(key, v.child(key, kv.second, kv.first));
  }
}

bool Map::has(const std::string& key) const { return opt(key).has_value(); }

std::optional<Value> Map::opt(const std::string& key) const {
  for (const auto& [k, v] : entries_)
    if (k == key) return v;
  return std::nullopt;
}

Value Map::get(const std::string& key) const {
  if (auto v = opt(key)) return *v;
  v_.fail("missing key '" + key + "'");
}

std::string Map::oneOf(const std::vector<std::string>& keys) const {
  std::string found;
  for (const auto& [k, v] : entries_)
    for (const auto& key : keys)
      if (k == key) {
        if (!found.empty()) v.fail("give only one of " + listNames(keys) + " (also '" + found + "')");
        found = key;
      }
  if (found.empty()) v_.fail("expected one of " + listNames(keys));
  return found;
}

namespace {

// Records where each document starts. Used to count documents without YAML::LoadAll, which
// loops forever on a stray ',' in yaml-cpp 0.7 (jbeder/yaml-cpp#1040): the parser then
// "starts" document after document at the same place, which this makes visible.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

Value parseDocument(const std::string& text, const std::string& fileName) {
  auto file = std::make_shared<const std::string>(fileName);
  Where whole{fileName, 0, 0};
  YAML::Node doc;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts h;
    for (int i = 0; i < 3 && parser.HandleNextDocument(h); ++i) {}
    for (size_t i = 1; i < h.starts.size(); ++i) {
      const YAML::Mark& m = h.starts[i];
      if (m.pos == h.starts[i - 1].pos) {  // stuck on a token no rule consumes
        std::string token = m.pos >= 0 && static_cast<size_t>(m.pos) < text.size() ? text.substr(m.pos, 1) : "?";
        yaml::fail(whereOf(m, fileName, whole), "YAML syntax: unexpected '" + token + "'");
      }
    }
    if (h.starts.size() > 1) yaml::fail(whereOf(h.starts[1], fileName, whole), "a file holds one YAML document (found a second one)");
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    yaml::fail(whereOf(e.mark, fileName, whole), "YAML syntax: " + e.msg);
  }
  return Value(doc, "", file, whole);
}

}  // namespace simtlm::yaml

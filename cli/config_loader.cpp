#include "cli/config_loader.h"

#include "isa/input_file.h"

#include <boost/program_options.hpp>
#include <fstream>
#include <sstream>

#include "isa/diagnostics.h"
#include "model/common/params.h"

namespace po = boost::program_options;

namespace simtlm::config {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Where things are in an INI text. Boost's parser reports neither lines nor columns, so the
// text is scanned the way Boost reads it (comment stripped, trimmed, `[section]` prefixes).
struct IniLines {
  struct Pos { int line, col; };
  std::map<std::string, std::vector<Pos>> keys;  // full key -> each place it is assigned
  std::vector<std::string> content;              // each line as Boost sees it

  explicit IniLines(const std::string& text) {
    std::istringstream in(text);
    std::string raw, section;
    while (std::getline(in, raw)) {
      std::string s = trim(raw.substr(0, raw.find('#')));
      content.push_back(s);
      int line = static_cast<int>(content.size());
      if (s.size() >= 2 && s.front() == '[' && s.back() == ']') {
        // Boost ends the prefix with one dot: `[dram.]` and `[dram]` are the same section.
        section = trim(s.substr(1, s.size() - 2));
        if (!section.empty() && section.back() == '.') section.pop_back();
      } else if (auto eq = s.find('='); eq != std::string::npos) {
        std::string name = trim(s.substr(0, eq));
        std::string full = section.empty() ? name : section + "." + name;
        keys[full].push_back({line, static_cast<int>(raw.find(name.empty() ? "=" : name)) + 1});
      }
    }
  }
  int lineOf(const std::string& content_) const {
    for (size_t i = 0; i < content.size(); ++i)
      if (content[i] == content_) return static_cast<int>(i) + 1;
    return 0;
  }
};

std::string unknownKey(const std::string& key) {
  auto near = suggestKeys(key);
  std::string msg = "unknown parameter '" + key + "'";
  if (near.empty()) return msg + " (simtlm params lists them all)";
  msg += "; did you mean ";
  size_t k = std::min<size_t>(near.size(), 3);
  for (size_t i = 0; i < k; ++i)
    msg += std::string(i == 0 ? "" : i + 1 == k ? " or " : ", ") + "'" + near[i] + "'";
  return msg + "?";
}

}  // namespace

std::string assignmentError(GpuConfig& c, const std::string& key, const std::string& value) {
  const Param* p = findParam(key);
  if (!p) return unknownKey(key);
  std::string err = p->parse(c, value);
  return err.empty() ? "" : key + " = '" + value + "': " + err;
}

void ConfigLoader::loadFile(const std::string& path) {
  loadText(readInputFile(path, "configuration file"), path);
}

void ConfigLoader::loadText(const std::string& text, const std::string& name) {
  IniLines lines(text);
  po::parsed_options parsed(nullptr);
  try {
    std::istringstream in(text);
    po::options_description none;  // every key comes back unregistered: the table checks them
    parsed = po::parse_config_file(in, none, /*allow_unregistered=*/true);
  } catch (const po::invalid_config_file_syntax& e) {
    int line = lines.lineOf(e.tokens());
    throw InputError(name, line, 1, "malformed line '" + e.tokens() + "' (expected [section] or key = value)");
  } catch (const po::error& e) {
    throw InputError(name, 0, 0, e.what());
  }
  std::map<std::string, size_t> seen;  // occurrences so far, to find each one's line
  GpuConfig next = cfg_;
  std::map<std::string, std::string> origins = origin_;
  for (const auto& opt : parsed.options) {
    const std::string& key = opt.string_key;
    size_t n = seen[key]++;
    auto it = lines.keys.find(key);
    IniLines::Pos pos{0, 0};
    if (it != lines.keys.end() && n < it->second.size()) pos = it->second[n];
    if (n > 0) {
      const bool found = it != lines.keys.end() && !it->second.empty();
      throw InputError(name, pos.line, pos.col,
                       key + " is set twice" +
                           (found ? " (first on line " + std::to_string(it->second[0].line) + ")" : ""));
    }
    std::string value = opt.value.empty() ? "" : opt.value[0];
    std::string err = assignmentError(next, key, value);
    if (!err.empty()) throw InputError(name, pos.line, pos.col, err);
    origins[key] = name + (pos.line ? ":" + std::to_string(pos.line) : "");
  }
  cfg_ = next;  // all or nothing: a bad file leaves the loader as it was
  origin_ = std::move(origins);
}

void ConfigLoader::set(const std::string& assignment, const std::string& origin) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw ConfigError("--set '" + assignment + "': expected key=value");
  std::string key = trim(assignment.substr(0, eq)), value = trim(assignment.substr(eq + 1));
  std::string err = assignmentError(cfg_, key, value);
  if (!err.empty()) throw ConfigError("--set '" + assignment + "': " + err);
  origin_[key] = origin;
}

void ConfigLoader::setAll(const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) set(a);
}

std::string ConfigLoader::origin(const std::string& key) const {
  auto it = origin_.find(key);
  return it == origin_.end() ? "" : it->second;
}

GpuConfig ConfigLoader::resolve() const {
  try {
    checkConfig(cfg_);
  } catch (const ConfigError& e) {
    std::string msg = e.what(), where;
    for (const auto& [key, from] : origin_)
      if (msg.find(key + " = ") != std::string::npos)
        where += (where.empty() ? "" : ", ") + key + " from " + from;
    throw ConfigError(msg + (where.empty() ? " (defaults)" : " [" + where + "]"));
  }
  return cfg_;
}

std::string formatParams(const ConfigLoader& loader) {
  const GpuConfig defaults;
  struct Row { std::string key, value, def, unit, allowed, what; };
  std::vector<Row> rows = {{"parameter", "value", "default", "unit", "allowed", "meaning"}};
  for (const auto& p : params()) {
    std::string from = loader.origin(p.key);
    rows.push_back({p.key, p.format(loader.current()), p.format(defaults), p.unit, p.allowed(),
                    p.description + (from.empty() ? "" : " (set in " + from + ")")});
  }
  size_t w[5] = {0, 0, 0, 0, 0};
  for (const auto& r : rows) {
    const std::string* cols[5] = {&r.key, &r.value, &r.def, &r.unit, &r.allowed};
    for (int i = 0; i < 5; ++i) w[i] = std::max(w[i], cols[i]->size());
  }
  std::ostringstream out;
  std::string section;
  for (const auto& r : rows) {
    std::string sec = r.key.substr(0, r.key.find('.'));
    if (!section.empty() && sec != section) out << "\n";
    section = sec;
    const std::string* cols[5] = {&r.key, &r.value, &r.def, &r.unit, &r.allowed};
    for (int i = 0; i < 5; ++i) out << *cols[i] << std::string(w[i] - cols[i]->size() + 2, ' ');
    out << r.what << "\n";
  }
  return out.str();
}

}  // namespace simtlm::config

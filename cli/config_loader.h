// Building a GpuConfig from INI files (Boost.Program_options) and `--set key=value` overrides.
// It lives in cli/ because nothing in model/ reads files (DESIGN.md 1); units only see GpuConfig.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/common/config.h"

namespace simtlm::config {

// Starts from the defaults; every file and --set applied later overrides earlier values.
// Each value remembers where it came from, for messages and `simtlm params`.
class ConfigLoader {
 public:
  // INI: `[section]` lines, then `name = value`; `#` starts a comment; keys are
  // `section.name`. An unknown key, a bad value, a key given twice in one file or a malformed
  // line throws simtlm::InputError "FILE:LINE:COL: error: ...".
  void loadFile(const std::string& path);
  // The same from text; `name` stands for the file in messages.
  void loadText(const std::string& text, const std::string& name);
  // "key=value", applied in order. Throws ConfigError "--set 'key=value': ...". `origin` is
  // where the assignment came from, for messages and `simtlm params`.
  void set(const std::string& assignment, const std::string& origin = "--set");
  void setAll(const std::vector<std::string>& assignments);

  // The values so far, not yet cross-checked.
  const GpuConfig& current() const { return cfg_; }
  // "" for a default, "FILE:LINE" or "--set".
  std::string origin(const std::string& key) const;
  // The configuration after the cross-field checks (checkConfig); a ConfigError then also says
  // where the offending values were set.
  GpuConfig resolve() const;

 private:
  GpuConfig cfg_;
  std::map<std::string, std::string> origin_;
};

// The error for assigning `value` to `key` ("" when fine): an unknown key with a suggestion,
// or "key = 'value': <what is wrong>".
std::string assignmentError(GpuConfig& c, const std::string& key, const std::string& value);

// `simtlm params`: every parameter with its current value, default, unit, allowed values,
// meaning and (when not the default) where it was set.
std::string formatParams(const ConfigLoader& loader);

}  // namespace simtlm::config

// Per-launch statistics in a scenario's result (`simtlm run --launch-stats`): which ones a result
// keeps, and the result file written one launch at a time.
#include <stdexcept>

#include "cli/results.h"
#include "cli/scenario_run.h"

namespace simtlm::scenario {
namespace {

// sm<N>.*: a statistic of one SM.
bool perSm(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 2, "sm") != 0) return false;
  const size_t dot = name.find_first_not_of("0123456789", 2);
  return dot > 2 && dot != std::string::npos && name[dot] == '.';
}

// `text` (dump(2) of a value nested `by` spaces deep) with its lines after the first indented.
std::string indented(const std::string& text, size_t by) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(by, ' ');
  }
  return out;
}

}  // namespace

LaunchStats parseLaunchStats(const std::string& text) {
  if (text == "none") return LaunchStats::None;
  if (text == "gpu") return LaunchStats::Gpu;
  if (text == "all") return LaunchStats::All;
  throw std::invalid_argument("--launch-stats '" + text + "': expected none, gpu or all");
}

nlohmann::json launchStats(const ScenarioResult& r, size_t i, LaunchStats which) {
  if (which == LaunchStats::None) return nlohmann::json::object();
  if (r.engine != Engine::Timing) return r.launches.at(i).stats;
  if (which == LaunchStats::All) return r.launchDeltas.toJson(i, true);
  return r.launchDeltas.toJson(i, false, [](const std::string& name) { return !perSm(name); });
}

void writeJson(const std::string& path, const ScenarioResult& r, LaunchStats which) {
  const nlohmann::json j = toJson(r, LaunchStats::None);  // each launch's statistics come one at a time
  cli::writeFileAtomically(path, [&](std::ostream& out) {
    // The layout of j.dump(2): keys in order, two spaces a level.
    bool first = true;
    out << "{";
    for (const auto& [key, value] : j.items()) {
      out << (first ? "\n  " : ",\n  ") << nlohmann::json(key).dump() << ": ";
      first = false;
      if (key != "launches" || value.empty()) {
        out << indented(value.dump(2), 2);
        continue;
      }
      out << "[";
      for (size_t i = 0; i < value.size(); ++i) {
        nlohmann::json l = value[i];
        if (which != LaunchStats::None) l["stats"] = launchStats(r, i, which);
        out << (i ? ",\n    " : "\n    ") << indented(l.dump(2), 4);
      }
      out << "\n  ]";
    }
    out << (first ? "}\n" : "\n}\n");
  });
}

}  // namespace simtlm::scenario

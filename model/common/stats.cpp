#include "model/common/stats.h"

#include <cmath>
#include <sstream>

namespace simtlm::stats {

namespace {

// Segments of [a-z0-9_], separated by single dots: names are stable keys for scripts, so one
// spelling per thing (no case variants, no empty levels).
bool validName(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  char prev = '.';
  for (char ch : name) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              (ch == '.' && prev != '.');
    if (!ok) return false;
    prev = ch;
  }
  return true;
}

std::string formatReal(double v) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

}  // namespace

void Registry::insert(Entry e) {
  if (!validName(e.name))
    throw StatsError("statistic name '" + e.name +
                     "' is not dot-separated lower-case segments of [a-z0-9_]");
  if (e.unit.empty()) throw StatsError("statistic '" + e.name + "' has no unit");
  if (auto it = index_.find(e.name); it != index_.end()) {
    if (!rebuilding_) throw StatsError("statistic '" + e.name + "' is registered twice");
    Entry& old = entries_[it->second];
    if (e.counter && old.counter) *e.counter = *old.counter;
    e.ratio = e.ratio || old.ratio;
    old = std::move(e);  // keeps its place in the registration order
    return;
  }
  index_.emplace(e.name, entries_.size());
  entries_.push_back(std::move(e));
}

void Registry::add(const std::string& name, uint64_t& counter, const std::string& unit,
                   const std::string& description) {
  insert(Entry{name, unit, description, &counter, {}});
}

void Registry::addDerived(const std::string& name, std::function<double()> value,
                          const std::string& unit, const std::string& description) {
  if (!value) throw StatsError("statistic '" + name + "' has no function");
  insert(Entry{name, unit, description, nullptr, std::move(value)});
}

void Registry::addRatio(const std::string& name, const std::string& numerator,
                        const std::string& denominator, const std::string& unit,
                        const std::string& description) {
  for (const auto* part : {&numerator, &denominator})
    if (!contains(*part))
      throw StatsError("ratio '" + name + "' refers to unknown statistic '" + *part + "'");
  insert(Entry{name, unit, description, nullptr,
               [this, numerator, denominator] {
                 double d = *value(denominator);
                 return d == 0 ? 0.0 : *value(numerator) / d;
               },
               true});
}

std::optional<double> Registry::value(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  const Entry& e = entries_[it->second];
  return e.counter ? static_cast<double>(*e.counter) : e.derived();
}

void Registry::reset() {
  for (auto& e : entries_)
    if (e.counter) *e.counter = 0;
}

nlohmann::json Registry::toJson() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& e : entries_) {
    if (e.counter) {
      j[e.name] = *e.counter;
    } else {
      double v = e.derived();
      j[e.name] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    }
  }
  return j;
}

std::string Registry::table(bool withDescriptions) const {
  std::vector<std::string> values;
  size_t wName = 0, wValue = 0, wUnit = 0;
  for (const auto& e : entries_) {
    values.push_back(e.counter ? std::to_string(*e.counter) : formatReal(e.derived()));
    wName = std::max(wName, e.name.size());
    wValue = std::max(wValue, values.back().size());
    wUnit = std::max(wUnit, e.unit.size());
  }
  std::ostringstream out;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    out << e.name << std::string(wName - e.name.size() + 2, ' ')
        << std::string(wValue - values[i].size(), ' ') << values[i] << "  " << e.unit;
    if (withDescriptions) out << std::string(wUnit - e.unit.size() + 2, ' ') << e.description;
    out << "\n";
  }
  return out.str();
}

void Registry::keepValues(bool exceptRatios) {
  for (Entry& e : entries_) {
    if (exceptRatios && e.ratio) continue;  // a ratio reads other entries by name: stays valid
    if (e.counter) {
      frozen_.push_back(*e.counter);
      e.counter = &frozen_.back();
    } else {
      const double v = e.derived();
      e.derived = [v] { return v; };
    }
  }
}

void Registry::freeze() { keepValues(false); }

void Registry::beginRebuild() {
  rebuilding_ = true;
  keepValues(true);
}

}  // namespace simtlm::stats

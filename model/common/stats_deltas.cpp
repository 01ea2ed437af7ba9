#include "model/common/stats_deltas.h"

#include <algorithm>

namespace simtlm::stats {

void Deltas::follow(const Registry& r) {
  const auto& entries = r.entries();
  for (size_t i = names_.size(); i < entries.size(); ++i) names_.push_back(entries[i].name);
  counter_.resize(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) counter_[i] = entries[i].counter != nullptr;
  last_.resize(entries.size(), 0);
}

void Deltas::start(const Registry& r) {
  follow(r);
  const auto& entries = r.entries();
  for (size_t i = 0; i < entries.size(); ++i) last_[i] = entries[i].counter ? *entries[i].counter : 0;
}

void Deltas::mark(const Registry& r) {
  follow(r);
  begin_.push_back(static_cast<uint32_t>(index_.size()));
  entries_.push_back(static_cast<uint32_t>(names_.size()));
  const auto& entries = r.entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].counter) continue;
    const uint64_t now = *entries[i].counter;
    if (now != last_[i]) {
      index_.push_back(static_cast<uint32_t>(i));
      delta_.push_back(now - last_[i]);  // modulo 2^64, as a snapshot difference
      last_[i] = now;
    }
  }
}

nlohmann::json Deltas::toJson(size_t p, bool zeros, const std::function<bool(const std::string&)>& keep) const {
  nlohmann::json j = nlohmann::json::object();
  if (zeros)
    for (size_t i = 0; i < entries_.at(p); ++i)
      if (counter_[i] && (!keep || keep(names_[i]))) j[names_[i]] = uint64_t{0};
  for (size_t k = begin_.at(p); k < end(p); ++k)
    if (!keep || keep(names_[index_[k]])) j[names_[index_[k]]] = delta_[k];
  return j;
}

uint64_t Deltas::value(size_t p, const std::string& name) const {
  for (size_t k = begin_.at(p); k < end(p); ++k)
    if (names_[index_[k]] == name) return delta_[k];
  return 0;
}

}  // namespace simtlm::stats

// The statistics registry: every countable event of the model is a named counter with a unit and
// a description, registered once by the unit that owns it (gem5 ADD_STAT, DRAMSys style) and
// walked once at the end of a run to write a flat JSON map and a short text table.
//
// Counting stays cheap: a counter is a plain uint64_t the unit owns (or a Counter, the same
// with an inline add); the registry keeps only its address, so hot code never looks a name up.
// Names are hierarchical, lower case, dot separated: `sm0.frontend.fetched`,
// `sm3.regfile.bank7.reads`, `l2.misses` (docs/statistics.md).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace simtlm::stats {

struct Counter {
  uint64_t value = 0;
  void add(uint64_t n = 1) { value += n; }
  Counter& operator++() { ++value; return *this; }
  Counter& operator+=(uint64_t n) { value += n; return *this; }
};

// A bad or duplicate name, an empty unit, or a ratio over names that do not exist.
class StatsError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;  // ratios refer back to their registry
  Registry& operator=(const Registry&) = delete;

  struct Entry {
    std::string name, unit, description;
    uint64_t* counter = nullptr;      // a counter, or
    std::function<double()> derived;  // a value computed when read
    bool ratio = false;               // derived from other entries by name (addRatio)
  };

  // The counter must stay alive while the registry is read. Throws StatsError.
  void add(const std::string& name, uint64_t& counter, const std::string& unit,
           const std::string& description);
  void add(const std::string& name, Counter& counter, const std::string& unit,
           const std::string& description) {
    add(name, counter.value, unit, description);
  }
  // A value computed from others when read (IPC, rates, occupancy averages).
  void addDerived(const std::string& name, std::function<double()> value, const std::string& unit,
                  const std::string& description);
  // numerator / denominator of two already registered statistics; 0 while the denominator is 0.
  void addRatio(const std::string& name, const std::string& numerator,
                const std::string& denominator, const std::string& unit,
                const std::string& description);

  const std::vector<Entry>& entries() const { return entries_; }  // in registration order
  bool contains(const std::string& name) const { return index_.count(name) > 0; }
  // The current value of a statistic, or nothing if no statistic has that name.
  std::optional<double> value(const std::string& name) const;
  // Zeroes every counter (for example after a warm-up); derived values follow.
  void reset();
  // Copies every current value into storage the registry owns and reads from there from now on:
  // call it before the units that own the counters are destroyed, to keep their final values.
  void freeze();
  // Units rebuilt in place (the GPU's release of its SMs after a fault, its soft reset):
  // beginRebuild() keeps every value where the registry owns it, as freeze() does, before the
  // old units go; until endRebuild(), adding a name that exists takes its entry over, the new
  // counter starting from the old value (a statistic counts on across the rebuild) and a derived
  // value taking the new function. Names not added again keep their last value.
  void beginRebuild();
  void endRebuild() { rebuilding_ = false; }

  // {"name": number, ...}: counters as integers, derived values as reals (null if not finite).
  nlohmann::json toJson() const;
  // One line per statistic: name, value, unit (and the description when asked).
  std::string table(bool withDescriptions = false) const;

 private:
  void insert(Entry e);
  void keepValues(bool exceptRatios);  // freeze(), beginRebuild()
  std::vector<Entry> entries_;
  std::deque<uint64_t> frozen_;  // counters after freeze() (deque: stable addresses)
  std::unordered_map<std::string, size_t> index_;
  bool rebuilding_ = false;
};

// Registers under a common prefix, so a unit need not know where it sits in the hierarchy:
//   Group fe(registry, "sm0.frontend");  fe.add("fetched", fetched_, "warp instructions", "...");
class Group {
 public:
  Group(Registry& registry, std::string prefix) : r_(registry), prefix_(std::move(prefix)) {}
  Group sub(const std::string& name) const { return Group(r_, path(name)); }
  std::string path(const std::string& name) const {
    return prefix_.empty() ? name : prefix_ + "." + name;
  }
  template <class C>
  void add(const std::string& name, C& counter, const std::string& unit, const std::string& desc) {
    r_.add(path(name), counter, unit, desc);
  }
  void addDerived(const std::string& name, std::function<double()> value, const std::string& unit,
                  const std::string& desc) {
    r_.addDerived(path(name), std::move(value), unit, desc);
  }
  // Numerator and denominator are relative to this group's prefix.
  void addRatio(const std::string& name, const std::string& num, const std::string& den,
                const std::string& unit, const std::string& desc) {
    r_.addRatio(path(name), path(num), path(den), unit, desc);
  }
  Registry& registry() const { return r_; }

 private:
  Registry& r_;
  std::string prefix_;
};

}  // namespace simtlm::stats

#include "model/energy/power_trace.h"

#include <cstdio>
#include <unordered_map>

#include "model/energy/catalogue.h"

namespace simtlm::energy {

using namespace sc_core;

PowerTrace::PowerTrace(const EnergyModel& model) : model_(model) {
  const auto& names = model.counters();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == "gpu.cycles") cyclesIndex_ = static_cast<int>(i);
  last_.assign(names.size(), 0.0);  // counters start at zero with the platform
}

void PowerTrace::sample(const std::vector<double>& values, int launch) {
  std::vector<double> delta(values.size());
  bool changed = false;
  for (size_t i = 0; i < values.size(); ++i) {
    delta[i] = values[i] - last_[i];
    changed = changed || delta[i] != 0;
  }
  if (!changed) return;
  const double cycles = delta[static_cast<size_t>(cyclesIndex_)];
  if (cycles == 0 && windows_.empty()) return;  // nothing to attach it to yet: the next window takes it
  const Breakdown b = model_.evaluate(delta);
  if (cycles == 0) {
    for (size_t c = 0; c < b.components.size(); ++c) windows_.back().componentPj[c] += b.components[c].total();
  } else {
    TraceWindow w;
    w.launch = launch;
    w.startCycle = static_cast<uint64_t>(last_[static_cast<size_t>(cyclesIndex_)]);
    w.endCycle = static_cast<uint64_t>(values[static_cast<size_t>(cyclesIndex_)]);
    for (const auto& p : b.components) w.componentPj.push_back(p.total());
    windows_.push_back(std::move(w));
  }
  last_ = values;
}

double PowerTrace::totalPj() const {
  double sum = 0;
  for (const auto& w : windows_)
    for (double e : w.componentPj) sum += e;
  return sum;
}

namespace {

// Columns: the components charged in this run, in catalogue order.
std::vector<size_t> charged(const EnergyModel& m) {
  std::vector<size_t> c;
  for (size_t i = 0; i < catalogue().size(); ++i)
    if (m.active(i)) c.push_back(i);
  return c;
}

std::string unitName(const std::string& component) {
  std::string s = component;
  for (char& ch : s)
    if (ch == '.') ch = '_';
  return s;
}

std::string num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

}  // namespace

std::string PowerTrace::csv() const {
  const auto cols = charged(model_);
  std::string out = "launch,start_cycle,end_cycle,start_s,end_s";
  for (size_t c : cols) out += "," + unitName(catalogue()[c].name) + "_w";
  out += ",total_w\n";
  for (const auto& w : windows_) {
    const double s = model_.seconds(static_cast<double>(w.endCycle - w.startCycle));
    out += std::to_string(w.launch) + "," + std::to_string(w.startCycle) + "," + std::to_string(w.endCycle) + "," +
           num(model_.seconds(static_cast<double>(w.startCycle))) + "," + num(model_.seconds(static_cast<double>(w.endCycle)));
    double total = 0;
    for (size_t c : cols) {
      out += "," + num(w.componentPj[c] * 1e-12 / s);
      total += w.componentPj[c];
    }
    out += "," + num(total * 1e-12 / s) + "\n";
  }
  return out;
}

std::string PowerTrace::ptrace() const {
  const auto cols = charged(model_);
  std::string out;
  for (size_t i = 0; i < cols.size(); ++i) out += (i ? "\t" : "") + unitName(catalogue()[cols[i]].name);
  out += "\n";
  for (const auto& w : windows_) {
    const double s = model_.seconds(static_cast<double>(w.endCycle - w.startCycle));
    for (size_t i = 0; i < cols.size(); ++i) out += (i ? "\t" : "") + num(w.componentPj[cols[i]] * 1e-12 / s);
    out += "\n";
  }
  return out;
}

PowerSampler::PowerSampler(sc_module_name name, const EnergyModel& model, const stats::Registry& registry,
                           uint64_t windowCycles, const sc_event& kernelStarted)
    : sc_module(name), trace_(model), window_(windowCycles == 0 ? 1 : windowCycles) {
  std::unordered_map<std::string, const stats::Registry::Entry*> byName;
  for (const auto& e : registry.entries()) byName[e.name] = &e;
  for (const auto& n : model.counters()) {
    auto it = byName.find(n);
    if (it == byName.end()) readers_.push_back([] { return 0.0; });
    else if (it->second->counter) readers_.push_back([p = it->second->counter] { return static_cast<double>(*p); });
    else readers_.push_back(it->second->derived);
    if (n == "gpu.cycles" && it != byName.end()) gpuCycles_ = it->second->counter;
  }
  SC_METHOD(arm);
  sensitive << kernelStarted;
  dont_initialize();
}

std::vector<double> PowerSampler::read() const {
  std::vector<double> v(readers_.size());
  for (size_t i = 0; i < readers_.size(); ++i) v[i] = readers_[i]();
  return v;
}

void PowerSampler::arm() {
  armed_ = true;
  launch_++;
  lastCycles_ = gpuCycles_ ? *gpuCycles_ : 0;
}

// The window's last cycle has just been counted: its counts are read now.
void PowerSampler::cycle(bool ended) {
  if (!armed_) return;
  const uint64_t cycles = gpuCycles_ ? *gpuCycles_ : 0;
  if (!ended && cycles - lastCycles_ < window_) return;
  trace_.sample(read(), launch_);
  lastCycles_ = cycles;
  armed_ = !ended;  // until the next launch
}

void PowerSampler::finish() { trace_.sample(read(), launch_); }

}  // namespace simtlm::energy

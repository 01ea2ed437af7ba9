#include "cli/scenario_run.h"

#include "cli/scenario_eval.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

#include "cli/emulate.h"
#include "cli/progress.h"
#include "cli/run_limits.h"
#include "model/mechanisms/registry.h"
#include "isa/diagnostics.h"
#include "isa/limit_study.h"
#include "model/common/log.h"

namespace simtlm::scenario {

void addStats(nlohmann::json& total, const nlohmann::json& add) {
  for (const auto& [k, v] : add.items()) {
    if (v.is_number_integer()) total[k] = total.value(k, uint64_t{0}) + v.get<uint64_t>();
  }
}

void placeBuffers(const Scenario& s, isa::GlobalMemory& mem) {
  for (const auto& b : s.buffers) {
    mem.allocate(b.name, b.words * 4);
    mem.setWords(b.name, b.init.generate(b.words));
  }
}

namespace {

std::vector<workloads::Step> stepsOf(const Launch& l, isa::GlobalMemory& mem, uint32_t machineWarpSize) {
  if (l.workload) {
    try {
      auto steps = l.workload->launches(mem);
      for (auto& st : steps) st.launch.params = workloads::kernelParams(*l.workload, l.kernels.at(st.kernel), st.launch.params, mem);
      return steps;
    } catch (const std::invalid_argument& e) {
      yaml::fail(l.where, l.path + ": " + l.label() + ": " + e.what() + " (the workload's buffers need names of their own)");
    } catch (const std::length_error& e) {
      yaml::fail(l.where, l.path + ": " + l.label() + ": " + e.what());
    }
  }
  isa::LaunchConfig c;
  c.grid = l.grid;
  c.block = l.block;
  c.warpSize = l.warpSize ? l.warpSize : machineWarpSize;
  for (const auto& p : l.params) c.params.push_back(p.buffer.empty() ? p.value : mem.region(p.buffer).base);
  for (const auto& b : l.constants) c.params.push_back(mem.region(b).base);  // a PTX kernel's __constant__ data
  return {workloads::Step{0, c}};
}

}  // namespace

std::vector<LaunchStep> prepareLaunches(const Scenario& s, isa::GlobalMemory& mem, uint32_t machineWarpSize) {
  std::vector<LaunchStep> out;
  for (size_t i = 0; i < s.launches.size(); ++i) {
    const Launch& l = s.launches[i];
    auto steps = stepsOf(l, mem, machineWarpSize);
    for (size_t j = 0; j < steps.size(); ++j) {
      std::string label = l.label();
      if (steps.size() > 1) label += " (launch " + std::to_string(j + 1) + " of " + std::to_string(steps.size()) + ")";
      out.push_back({i, &l.kernels.at(steps[j].kernel), steps[j].launch, label});
      try {
        out.back().config.validate(*out.back().kernel);
      } catch (const std::invalid_argument& e) {
        yaml::fail(l.where, l.path + ": " + label + ": " + e.what());
      }
    }
  }
  return out;
}

std::string runOnInterpreter(const Scenario& s, isa::GlobalMemory& mem, bool study, std::vector<LaunchOutcome>* out) {
  placeBuffers(s, mem);
  // limits.max_instructions holds for the run: each launch gets what the ones before it left.
  const long long limit = s.config.limits.max_instructions;
  uint64_t left = limit > 0 ? static_cast<uint64_t>(limit) : UINT64_MAX;
  cli::Progress progress("interpreter", 0, limit > 0 ? static_cast<uint64_t>(limit) : 0);
  spdlog::logger& logger = log::get("interp");
  for (const auto& step : prepareLaunches(s, mem, static_cast<uint32_t>(s.config.gpu.warp_size))) {
    const isa::Dim3 g = step.config.grid, b = step.config.block;
    logger.debug("{}: kernel '{}', grid ({},{},{}) of blocks ({},{},{})", step.label, step.kernel->name, g.x, g.y, g.z,
                 b.x, b.y, b.z);
    isa::LimitStudy limitStudy;
    isa::ExecCounts counts;
    isa::LaunchConfig config = step.config;
    config.maxWarpInstructions = left;
    if (progress.enabled()) {
      const uint64_t before = (limit > 0 ? static_cast<uint64_t>(limit) : UINT64_MAX) - left;
      config.onProgress = [&progress, before](uint64_t n) { progress.update(0, before + n); };
    }
    isa::Interpreter interpreter(*step.kernel, mem);
    // A launch that stops keeps what it counted until then (marked partial; no limit study).
    auto stopped = [&] {
      if (out) out->push_back({step.label, step.config, cli::statsJson(interpreter.counts(), nullptr), true});
    };
    try {
      counts = interpreter.run(config, study ? &limitStudy : nullptr);
    } catch (const LimitError& e) {
      stopped();
      const std::string hint = cli::limitHint(e.what());
      return std::string(e.what()) + (hint.empty() ? "" : "\n  " + hint);
    } catch (const ExecError& e) {
      stopped();
      return e.what();
    }
    left -= counts.warpInstructions;
    logger.debug("{}: finished, {} warp instructions", step.label, counts.warpInstructions);
    if (out) out->push_back({step.label, step.config, cli::statsJson(counts, study ? &limitStudy.result() : nullptr)});
  }
  return "";
}

namespace {

bool isInterpreterStat(const std::string& name) {
  return name.rfind("interp.", 0) == 0 || name.rfind("limit.", 0) == 0;
}

std::string formatWord(uint32_t w, ElemType t) {
  char b[64];
  if (t == ElemType::F32) {
    float f;
    std::memcpy(&f, &w, 4);
    std::snprintf(b, sizeof b, "%.9g (0x%08x)", static_cast<double>(f), w);
  } else if (t == ElemType::S32) {
    std::snprintf(b, sizeof b, "%d", static_cast<int32_t>(w));
  } else {
    std::snprintf(b, sizeof b, "%u", w);
  }
  return b;
}

// The first few words that differ, and how many.
class WordDiff {
 public:
  explicit WordDiff(ElemType type) : type_(type) {}
  void word(size_t i, uint32_t got, uint32_t want) {
    if (got == want) return;
    if (bad_ < 5) s_ << "[" << i << "] = " << formatWord(got, type_) << ", expected " << formatWord(want, type_) << "; ";
    ++bad_;
  }
  std::string message(size_t words) {
    if (bad_) s_ << bad_ << " of " << words << " words differ";
    return s_.str();
  }

 private:
  ElemType type_;
  std::ostringstream s_;
  size_t bad_ = 0;
};

uint32_t wordAt(const uint8_t* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

std::string compare(const std::vector<uint32_t>& got, const Contents& want) {
  std::vector<uint32_t> w;
  try {
    w = want.generate(got.size());
  } catch (const InputError& e) {
    return e.message();
  }
  WordDiff diff(want.type);
  for (size_t i = 0; i < got.size(); ++i) diff.word(i, got[i], w[i]);
  return diff.message(got.size());
}

// A buffer's bytes against the interpreter's, word by word, without copying either.
std::string compareBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, ElemType type) {
  const size_t n = got.size() / 4;
  if (want.size() / 4 != n) {  // as compare() says it (a buffer of another size: never for one scenario)
    Contents c;
    c.kind = Contents::Kind::Words;
    c.type = type;
    c.words.resize(want.size() / 4);
    std::memcpy(c.words.data(), want.data(), c.words.size() * 4);
    std::vector<uint32_t> g(n);
    std::memcpy(g.data(), got.data(), n * 4);
    return compare(g, c);
  }
  WordDiff diff(type);
  for (size_t i = 0; i < n; ++i) diff.word(i, wordAt(got.data() + 4 * i), wordAt(want.data() + 4 * i));
  return diff.message(n);
}

bool compareStat(double a, const std::string& op, double b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  return a >= b;
}

class Evaluator {
 public:
  Evaluator(const ScenarioResult& r, const isa::GlobalMemory& mem, const ReferenceImage* reference)
      : s_(*r.scenario), r_(r), mem_(mem), given_(reference) {}

  CheckOutcome operator()(const Check& c) {
    switch (c.kind) {
      case Check::Kind::ExpectError:
        if (r_.error.empty()) return {false, false, "the run completed without an error"};
        if (r_.error.find(c.text) == std::string::npos) return {false, false, "the run stopped with another error: " + r_.error};
        return {true, false, r_.error};
      case Check::Kind::Verify: {
        std::string msg;
        for (const auto& l : s_.launches)
          if (l.workload) msg += l.workload->verify(mem_);
        return {msg.empty(), false, msg.empty() ? "bit-identical to the C++ reference" : msg};
      }
      case Check::Kind::BufferEquals: {
        if (!has(c.buffer)) return {false, false, "no buffer named '" + c.buffer + "' after the run"};
        std::string msg = compare(mem_.words(c.buffer), c.expected);
        return {msg.empty(), false, msg};
      }
      case Check::Kind::BufferInterpreter: return interpreter(c);
      case Check::Kind::Conservation: return conservation();
      case Check::Kind::Stat: {
        if (!r_.stats.contains(c.stat)) {
          if (c.stat.rfind("limit.", 0) == 0 && !r_.limitStudy)
            return {false, false, "limit.* statistics need the limit study (run without --no-study)"};
          if (r_.engine == Engine::Interpreter && !isInterpreterStat(c.stat))
            return {true, true, "a timing-model statistic: checked by simtlm run"};
          return {false, false, "statistic '" + c.stat + "' is not produced by the " +
                                    (r_.engine == Engine::Timing ? "timing model" : "functional interpreter") +
                                    " (docs/statistics.md lists them)"};
        }
        double v = r_.stats[c.stat].get<double>();
        std::ostringstream m;
        m << "is " << r_.stats[c.stat].dump();
        return {compareStat(v, c.op, c.value), false, m.str()};
      }
    }
    return {false, false, "?"};
  }

 private:
  bool has(const std::string& name) const {
    for (const auto& reg : mem_.regions())
      if (reg.name == name) return true;
    return false;
  }
  // `run` hands in the interpreter's memory. On `emulate` the run is the interpreter's own, so
  // this re-runs the scenario on fresh memory and compares: a determinism check.
  CheckOutcome interpreter(const Check& c) {
    if (c.buffer == "*") {  // every buffer (simtlm run --contract)
      size_t n = 0;
      for (const auto& reg : mem_.regions()) {
        Check one = c;
        one.buffer = reg.name;
        CheckOutcome o = interpreter(one);
        if (!o.passed) return {false, false, "buffer " + reg.name + ": " + o.message};
        n++;
      }
      return {true, false, std::to_string(n) + " buffers bit-identical to the functional interpreter's"};
    }
    if (!has(c.buffer)) return {false, false, "no buffer named '" + c.buffer + "' after the run"};
    const Buffer* b = s_.findBuffer(c.buffer);
    const ElemType type = b ? b->type : ElemType::U32;
    const std::vector<uint8_t>& got = mem_.region(c.buffer).bytes;
    if (given_ && given_->has(c.buffer) && given_->size(c.buffer) / 4 == got.size() / 4) {
      WordDiff diff(type);
      std::string error;
      const bool read = given_->forEachChunk(c.buffer, [&](size_t offset, const uint8_t* want, size_t n) {
        for (size_t o = 0; o + 4 <= n; o += 4) diff.word((offset + o) / 4, wordAt(got.data() + offset + o), wordAt(want + o));
      }, error);
      if (!read) return {false, false, error};
      const std::string msg = diff.message(got.size() / 4);
      return {msg.empty(), false, msg.empty() ? "bit-identical to the functional interpreter's" : msg};
    }
    if (!reference_) {  // none given (emulate), or not this buffer: the interpreter runs again
      reference_.emplace();
      refError_ = runOnInterpreter(s_, *reference_, false, nullptr);
    }
    if (!refError_.empty()) return {false, false, "the reference run stopped: " + refError_};
    const std::string msg = compareBytes(got, reference_->region(c.buffer).bytes, type);
    return {msg.empty(), false, msg.empty() ? "bit-identical to the functional interpreter's" : msg};
  }

  // The timing model's issued warp instructions plus those the mechanism removed, against the
  // interpreter's (the reference run's interp.* statistics).
  CheckOutcome conservation() const {
    if (r_.engine != Engine::Timing) return {true, true, "a timing-model check: checked by simtlm run"};
    const auto num = [&](const std::string& k) {
      return r_.stats.contains(k) ? r_.stats[k].get<uint64_t>() : uint64_t{0};
    };
    if (num("interp.warp.atomic_global") + num("interp.warp.atomic_shared") > 0)
      return {true, true, "not checked: the kernels use atomics (their warp instructions may depend on timing)"};
    // A composition's removed statistics add up (each mechanism removes its own instructions).
    const std::vector<std::string> removedStats = mechanisms::removedStatsOf(s_.mechanism);
    uint64_t issued = 0, removed = 0;
    for (auto it = r_.stats.begin(); it != r_.stats.end(); ++it) {
      const std::string& k = it.key();
      const auto dot = k.find('.');
      if (k.rfind("sm", 0) != 0 || dot == std::string::npos || !it->is_number()) continue;
      const std::string rest = k.substr(dot + 1);
      if (rest == "issue.warp_instructions") issued += it->get<uint64_t>();
      else if (std::find(removedStats.begin(), removedStats.end(), rest) != removedStats.end())
        removed += it->get<uint64_t>();
    }
    const uint64_t want = num("interp.warp_instructions");
    std::ostringstream m;
    m << "issued " << issued << " + removed " << removed << " = " << issued + removed << ", interpreter " << want;
    return {issued + removed == want, false, m.str()};
  }

  const Scenario& s_;
  const ScenarioResult& r_;
  const isa::GlobalMemory& mem_;
  const ReferenceImage* given_;
  std::optional<isa::GlobalMemory> reference_;
  std::string refError_;
};

}  // namespace

std::vector<std::string> interpreterCheckedBuffers(const Scenario& s) {
  std::vector<std::string> names;
  for (const auto& c : s.checks)
    if (c.kind == Check::Kind::BufferInterpreter) names.push_back(c.buffer);
  return names;
}

void evaluateChecks(ScenarioResult& r, const isa::GlobalMemory& mem, const ReferenceImage* reference) {
  const Scenario& s = *r.scenario;
  const bool stoppedBadly = !r.error.empty() && !s.expectsError();
  Evaluator eval(r, mem, reference);
  r.passed = !stoppedBadly;
  r.checks.clear();
  for (const auto& c : s.checks) {
    CheckOutcome o = stoppedBadly ? CheckOutcome{false, false, "not evaluated: the run stopped"} : eval(c);
    r.passed = r.passed && o.passed;
    r.checks.push_back(o);
  }
}

ScenarioResult runScenario(const Scenario& s, bool limitStudy) {
  ScenarioResult r;
  r.scenario = &s;
  r.limitStudy = limitStudy;
  r.stats = nlohmann::json::object();
  isa::GlobalMemory mem;
  auto start = std::chrono::steady_clock::now();
  r.error = runOnInterpreter(s, mem, limitStudy, &r.launches);
  r.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& l : r.launches) addStats(r.stats, l.stats);
  evaluateChecks(r, mem, nullptr);
  return r;
}

}  // namespace simtlm::scenario

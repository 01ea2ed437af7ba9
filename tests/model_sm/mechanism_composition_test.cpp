#include <algorithm>
// Mechanisms composed as a list (docs/mechanisms.md, "Composition"): the registry's hook groups,
// the "a+b" names and their errors, the composite's forwarding, and a run of DARSIE composed
// with an observer defined here, which must change nothing of DARSIE's and see every issue.
#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <utility>

#include "model/common/config.h"
#include "model/mechanisms/composite.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"
#include "workloads/workload.h"

using namespace simtlm;
using config::Mechanism;
using mechanisms::HookGroup;

namespace {

// (SM, block, warp in block) -> warp instructions the observer saw issue, kept when it exits.
std::map<std::tuple<int, uint32_t, uint32_t>, uint64_t> gExitedCounts;

// Counts the warp instructions each warp issues (the `issued` hook) and removes nothing.
class IssueCounter final : public sm::SmMechanism {
 public:
  IssueCounter(sm::SmContext& sm, stats::Registry& r) : sm_(sm), perSlot_(sm.warps.size(), 0) {
    r.add("sm" + std::to_string(sm.id) + ".count_issued.warp_instructions", total_, "instructions",
          "warp instructions the test's observer saw issue");
  }
  void issued(int slot, const sm::IBufferEntry&, bool) override {
    ++perSlot_[static_cast<size_t>(slot)];
    ++total_;
  }
  void warpExited(int slot) override {
    const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
    gExitedCounts[{sm_.id, sm_.blocks[static_cast<size_t>(w.block)].linear, w.indexInBlock}] += perSlot_[slot];
    perSlot_[static_cast<size_t>(slot)] = 0;
  }

 private:
  sm::SmContext& sm_;
  std::vector<uint64_t> perSlot_;
  uint64_t total_ = 0;
};

mechanisms::MechanismInfo testInfo(const std::string& name, std::vector<HookGroup> uses, std::vector<HookGroup> alone) {
  return {Mechanism::Baseline, name, "a test's mechanism", "", std::move(uses), std::move(alone)};
}

// Registered once per process (a gtest binary may run every test in one).
Mechanism counterId() {
  static const Mechanism id = mechanisms::registerMechanism(
      testInfo("count-issued", {HookGroup::OnIssue, HookGroup::AdmissionExit}, {}),
      [](const config::GpuConfig&) { return sm::MechanismResources{}; },
      [](sm::SmContext& sm, stats::Registry& r) { return std::make_unique<IssueCounter>(sm, r); });
  return id;
}
void registerConflictingOnes() {
  static const bool once = [] {
    auto none = [](const config::GpuConfig&) { return sm::MechanismResources{}; };
    auto nothing = [](sm::SmContext&, stats::Registry&) { return std::make_unique<sm::SmMechanism>(); };
    mechanisms::registerMechanism(testInfo("tagger", {HookGroup::Decode}, {HookGroup::Decode}), none, nothing);
    mechanisms::registerMechanism(testInfo("steer", {HookGroup::Control}, {}), none, nothing);
    return true;
  }();
  (void)once;
}

std::string parseError(const std::string& name) {
  try {
    mechanisms::parseMechanisms(name);
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(MechanismComposition, DarsieDeclaresItsHookGroupsAndTheExclusiveOnes) {
  for (Mechanism m : {Mechanism::Darsie, Mechanism::DarsieIgnoreStore, Mechanism::DarsieNoCfSync,
                      Mechanism::DarsieEarlySkip}) {
    const auto& info = mechanisms::infoOf(m);
    // Every group but the operand bypass and the value storage (BOW's), so that darsie+bow-wr composes.
    EXPECT_EQ(info.uses.size(), static_cast<size_t>(mechanisms::kNumHookGroups) - 2) << info.name;
    for (HookGroup g : {HookGroup::OperandBypass, HookGroup::ValueStorage})
      EXPECT_EQ(std::count(info.uses.begin(), info.uses.end(), g), 0) << info.name;
    EXPECT_EQ(info.exclusive, (std::vector<HookGroup>{HookGroup::FetchProbe, HookGroup::Decode,
                                                      HookGroup::OperandMapping, HookGroup::Control}))
        << info.name;
  }
  EXPECT_TRUE(mechanisms::infoOf(Mechanism::Baseline).uses.empty());
}

// The rule the composite's sums rely on: what a mechanism needs alone it uses, and one that keeps
// registers in the banks needs the operand mapping alone (one region of mechanism registers).
TEST(MechanismComposition, EveryRegisteredMechanismsGroupsAreConsistent) {
  for (const auto& info : mechanisms::registered()) {
    for (HookGroup g : info.exclusive)
      EXPECT_NE(std::find(info.uses.begin(), info.uses.end(), g), info.uses.end()) << info.name;
    config::GpuConfig cfg;
    cfg.mechanism = info.id;
    if (!mechanisms::resourcesFor(cfg).regsName.empty()) {
      EXPECT_NE(std::find(info.exclusive.begin(), info.exclusive.end(), HookGroup::OperandMapping),
                info.exclusive.end())
          << info.name;
    }
  }
}

TEST(MechanismComposition, EachHookGroupHasItsRowAndPhrase) {
  for (int i = 0; i < mechanisms::kNumHookGroups; ++i) {
    const auto g = static_cast<HookGroup>(i);
    EXPECT_EQ(mechanisms::hookGroupInfo(g).group, g);
  }
  EXPECT_STREQ(mechanisms::hookGroupInfo(HookGroup::FetchProbe).phrase, "the front end's fetch probe");
  EXPECT_STREQ(mechanisms::hookGroupInfo(HookGroup::AdmissionExit).key, "admission-exit");
}

TEST(MechanismComposition, NamesParseToTheirLists) {
  counterId();
  EXPECT_EQ(mechanisms::parseMechanisms("baseline"), std::vector<Mechanism>{});
  EXPECT_EQ(mechanisms::parseMechanisms("darsie-no-cf-sync"), std::vector<Mechanism>{Mechanism::DarsieNoCfSync});
  EXPECT_EQ(mechanisms::parseMechanisms("darsie+count-issued"), (std::vector<Mechanism>{Mechanism::Darsie, counterId()}));
  EXPECT_EQ(mechanisms::parseMechanisms("count-issued+darsie"), (std::vector<Mechanism>{counterId(), Mechanism::Darsie}));
  config::GpuConfig cfg;
  mechanisms::configure(cfg, "darsie-ignore-store+count-issued");
  EXPECT_EQ(cfg.mechanism, Mechanism::DarsieIgnoreStore);
  EXPECT_EQ(cfg.composition, (std::vector<Mechanism>{Mechanism::DarsieIgnoreStore, counterId()}));
  mechanisms::configure(cfg, "darsie");  // a single name leaves no composition behind
  EXPECT_EQ(cfg.mechanism, Mechanism::Darsie);
  EXPECT_TRUE(cfg.composition.empty());
  EXPECT_EQ(mechanisms::removedStatsOf("count-issued+darsie"), std::vector<std::string>{"darsie.skipped"});
}

TEST(MechanismComposition, ConflictsAndBadElementsAreErrorsNamingThem) {
  registerConflictingOnes();
  EXPECT_EQ(parseError("darsie+darsie-ignore-store"),
            "composition 'darsie+darsie-ignore-store': darsie and darsie-ignore-store both need the front "
            "end's fetch probe exclusively");
  EXPECT_EQ(parseError("tagger+darsie"),
            "composition 'tagger+darsie': tagger and darsie both need the front end's decode exclusively");
  EXPECT_EQ(parseError("steer+darsie"),
            "composition 'steer+darsie': darsie needs control (branches, barriers, reconvergence, flushes) "
            "exclusively and steer uses it too");
  EXPECT_EQ(parseError("darsie+darsie"), "composition 'darsie+darsie': darsie is listed twice");
  EXPECT_EQ(parseError("darsie+"),
            "composition 'darsie+': an empty name (join mechanism names with '+', for example darsie+NAME)");
  EXPECT_EQ(parseError("+darsie").rfind("composition '+darsie': an empty name", 0), 0u);
  EXPECT_EQ(parseError("darsie++steer").rfind("composition 'darsie++steer': an empty name", 0), 0u);
  EXPECT_EQ(parseError("baseline+darsie"),
            "composition 'baseline+darsie': baseline is no mechanism and cannot be composed");
  EXPECT_EQ(parseError("darsie+nope").rfind("composition 'darsie+nope': unknown mechanism 'nope' (known: baseline, "
                                            "darsie, darsie-ignore-store, darsie-no-cf-sync, darsie-early-skip, ",
                                            0),
            0u);
  EXPECT_EQ(parseError("nope").rfind("unknown mechanism 'nope' (known: baseline, darsie, ", 0), 0u);
  // A configuration built by hand is checked where the SM asks.
  config::GpuConfig cfg;
  cfg.composition = {Mechanism::Darsie, Mechanism::DarsieNoCfSync};
  EXPECT_THROW(mechanisms::resourcesFor(cfg), config::ConfigError);
}

// Two mechanisms that log every hook: the composite calls each in list order and combines answers.
struct Logger final : sm::SmMechanism {
  Logger(std::string n, std::string* log, bool hold, int regs) : name(std::move(n)), log(log), hold(hold), regs(regs) {}
  std::string name;
  std::string* log;
  bool hold;
  int regs;
  void note(const char* hook) const { *log += name + "." + hook + " "; }
  void kernelStarted() override { note("kernelStarted"); }
  int regsPerBlock() const override { return regs; }
  void blockAdmitted(int) override { note("blockAdmitted"); }
  void blockRetired(int) override { note("blockRetired"); }
  void warpExited(int) override { note("warpExited"); }
  void warpDrained(int) override { note("warpDrained"); }
  void beforeFetch(uint64_t) override { note("beforeFetch"); }
  bool holdsFetch(int) const override { note("holdsFetch"); return hold; }
  void delivered(int, sm::IBufferEntry&) override { note("delivered"); }
  bool fetchStopsAfter(const isa::Instr&) const override { note("fetchStopsAfter"); return hold; }
  bool holdsIssue(int) const override { note("holdsIssue"); return hold; }
  void retireSkips(int) override { note("retireSkips"); }
  void issued(int, const sm::IBufferEntry&, bool) override { note("issued"); }
  void flushed(int) override { note("flushed"); }
  void beforeExecute(int, const isa::Instr&, uint32_t) override { note("beforeExecute"); }
  void written(int, const isa::Instr&) override { note("written"); }
  void barrierReleased(sm::BlockSlot&) override { note("barrierReleased"); }
  void woken(int) override { note("woken"); }
  std::string describeWarp(int) const override { return hold ? name + " holds it" : ""; }
  bool couplesWarps() const override { return hold; }
};

TEST(MechanismComposition, CompositeForwardsEveryHookInListOrderAndCombinesAnswers) {
  std::string log;
  std::vector<std::unique_ptr<sm::SmMechanism>> parts;
  parts.push_back(std::make_unique<Logger>("a", &log, false, 3));
  parts.push_back(std::make_unique<Logger>("b", &log, true, 4));
  mechanisms::CompositeMechanism c(std::move(parts));
  sm::IBufferEntry e{};
  sm::BlockSlot b;
  c.kernelStarted();
  c.blockAdmitted(0);
  c.beforeFetch(7);
  c.delivered(1, e);
  c.retireSkips(1);
  c.issued(1, e, false);
  c.flushed(1);
  c.beforeExecute(1, e.instr, 0);
  c.written(1, e.instr);
  c.barrierReleased(b);
  c.woken(-1);
  c.warpExited(1);
  c.warpDrained(1);
  c.blockRetired(0);
  const char* hooks[] = {"kernelStarted", "blockAdmitted", "beforeFetch", "delivered", "retireSkips",
                         "issued", "flushed", "beforeExecute", "written", "barrierReleased",
                         "woken", "warpExited", "warpDrained", "blockRetired"};
  std::string want;
  for (const char* h : hooks) want += std::string("a.") + h + " b." + h + " ";
  EXPECT_EQ(log, want);
  // Any holds (b does): the answer is b's even though a, first, says no.
  EXPECT_TRUE(c.holdsFetch(1));
  EXPECT_TRUE(c.holdsIssue(1));
  EXPECT_TRUE(c.fetchStopsAfter(e.instr));
  EXPECT_TRUE(c.couplesWarps());
  EXPECT_EQ(c.regsPerBlock(), 7);
  EXPECT_EQ(c.describeWarp(1), "b holds it");
  std::vector<std::unique_ptr<sm::SmMechanism>> two;
  two.push_back(std::make_unique<Logger>("x", &log, true, 0));
  two.push_back(std::make_unique<Logger>("y", &log, true, 0));
  EXPECT_EQ(mechanisms::CompositeMechanism(std::move(two)).describeWarp(0), "x holds it; y holds it");
  std::vector<std::unique_ptr<sm::SmMechanism>> quiet;
  quiet.push_back(std::make_unique<Logger>("p", &log, false, 0));
  quiet.push_back(std::make_unique<Logger>("q", &log, false, 0));
  mechanisms::CompositeMechanism none(std::move(quiet));
  EXPECT_FALSE(none.holdsFetch(0));
  EXPECT_FALSE(none.holdsIssue(0));
  EXPECT_FALSE(none.couplesWarps());
  EXPECT_EQ(none.describeWarp(0), "");
}

// The statistics whose values differ between two runs (the first few), empty for none.
std::string differing(const nlohmann::json& a, const nlohmann::json& b) {
  std::string out;
  int n = 0;
  for (auto it = a.begin(); it != a.end() && n < 5; ++it)
    if (!b.contains(it.key()) || b[it.key()] != *it) {
      out += it.key() + " " + it->dump() + " vs " + (b.contains(it.key()) ? b[it.key()].dump() : "(none)") + "; ";
      ++n;
    }
  for (auto it = b.begin(); it != b.end() && n < 5; ++it)
    if (!a.contains(it.key())) {
      out += it.key() + " only in the second; ";
      ++n;
    }
  return out;
}

struct Outcome {
  nlohmann::json stats;
  uint64_t interp = 0, issued = 0, skipped = 0, counted = 0, cycles = 0;
  std::map<std::tuple<int, uint32_t, uint32_t>, uint64_t> perWarp;
  size_t warps = 0;
};

// matmul 64^3 on two SMs under `name` (one mechanism or a composition).
Outcome runMatmul(const std::string& name) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  mechanisms::configure(cfg, name);
  auto w = workloads::makeWorkload("matmul", {{"size", 64}});
  const isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  const auto l1 = w->setup(golden);
  const auto l2 = w->setup(timed);
  Outcome out;
  out.interp = isa::Interpreter(k, golden).run(l1).warpInstructions;
  gExitedCounts.clear();
  stats::Registry reg;
  const auto r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, l2, timed, reg);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(golden == timed) << name << ": memory differs from the interpreter's";
  out.cycles = r.cycles;
  out.stats = reg.toJson();
  for (int s = 0; s < 2; ++s) {
    const std::string p = "sm" + std::to_string(s) + ".";
    out.issued += static_cast<uint64_t>(reg.value(p + "issue.warp_instructions").value_or(0));
    out.skipped += static_cast<uint64_t>(reg.value(p + "darsie.skipped").value_or(0));
    out.counted += static_cast<uint64_t>(reg.value(p + "count_issued.warp_instructions").value_or(0));
    out.stats.erase(p + "count_issued.warp_instructions");  // the observer's own
  }
  out.perWarp = gExitedCounts;
  out.warps = static_cast<size_t>(l2.grid.x * l2.grid.y * l2.grid.z) *
              ((l2.block.x * l2.block.y * l2.block.z + 31) / 32);
  return out;
}

// DARSIE composed with an observer: every statistic is DARSIE's alone, and the observer saw
// exactly what DARSIE let issue (the interpreter's count minus DARSIE's skips), warp by warp.
TEST(MechanismComposition, DarsieWithAnObserverRunsAsDarsieAndTheObserverSeesEveryIssue) {
  counterId();
  const Outcome alone = runMatmul("darsie");
  ASSERT_GT(alone.skipped, alone.interp / 5);  // DARSIE removes a large share here
  for (const char* name : {"darsie+count-issued", "count-issued+darsie"}) {
    SCOPED_TRACE(name);
    const Outcome both = runMatmul(name);
    EXPECT_EQ(both.cycles, alone.cycles);
    EXPECT_EQ(differing(both.stats, alone.stats), "");
    EXPECT_EQ(both.skipped, alone.skipped);
    EXPECT_EQ(both.counted, both.interp - both.skipped);
    EXPECT_EQ(both.counted, both.issued);
    EXPECT_EQ(both.perWarp.size(), both.warps);  // every warp exited once, through the composite
    uint64_t sum = 0;
    for (const auto& [warp, n] : both.perWarp) sum += n;
    EXPECT_EQ(sum, both.counted);
  }
}

// The observer alone changes nothing of the baseline's and sees all of the interpreter's
// warp instructions issue.
TEST(MechanismComposition, TheObserverAloneRunsAsTheBaseline) {
  counterId();
  const Outcome base = runMatmul("baseline");
  const Outcome seen = runMatmul("count-issued");
  EXPECT_EQ(differing(seen.stats, base.stats), "");
  EXPECT_EQ(seen.counted, base.interp);
  EXPECT_EQ(seen.perWarp.size(), seen.warps);
}

}  // namespace

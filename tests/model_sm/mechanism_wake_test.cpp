// A mechanism that declares it wakes the warps whose issue checks it changes
// (SmMechanism::wakesOnIssueChanges) lets the issue stage keep a warp's stall between its
// wake-ups; a hold (holdsIssue) is still asked again at every look, since it may end with time
// alone. One that does not declare it is asked at every look, whatever it changes unannounced.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/memory.h"
#include "model/common/config.h"
#include "model/mechanisms/composite.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

// One warp: s2r, then 24 independent adds (eight destinations in turn), exit.
std::string kernelText() {
  std::string s = ".kernel hold\n.regs 9\n  s2r r0, %tid.x\n";
  for (int i = 0; i < 24; ++i) s += "  add.u32 r" + std::to_string(1 + i % 8) + ", r0, " + std::to_string(i) + "\n";
  return s + "  exit\n";
}

// Holds warp slot 0 at issue during [from, until) (cycles). How the hold begins and ends:
//   - Unannounced: it begins and ends with time alone, nothing woken.
//   - WakeAtStart: the mechanism wakes the warp in the cycle before the hold begins (at the
//     front end, after issue); the hold ends with time alone.
//   - WakeAtBothEnds: also the end is a decision it announces with a wake, one cycle early.
enum class HoldKind { Unannounced, WakeAtStart, WakeAtBothEnds };

struct HoldRecord {
  std::vector<uint64_t> issues;  // cycles warp 0 issued in
};

class WindowHold final : public sm::SmMechanism {
 public:
  WindowHold(sm::SmContext& sm, HoldKind kind, bool declares, uint64_t from, uint64_t until, HoldRecord& rec)
      : sm_(sm), kind_(kind), declares_(declares), from_(from), until_(until), rec_(rec) {}
  void beforeFetch(uint64_t cycle) override {
    if (kind_ == HoldKind::Unannounced) return;
    if (cycle + 1 == from_) {
      held_ = true;
      sm_.wake(0);
    }
    if (kind_ == HoldKind::WakeAtBothEnds && cycle + 1 == until_) {
      held_ = false;
      sm_.wake(0);
    }
  }
  bool holdsIssue(int slot) const override {
    if (slot != 0) return false;
    if (kind_ == HoldKind::Unannounced) return sm_.now >= from_ && sm_.now < until_;
    if (kind_ == HoldKind::WakeAtStart) return held_ && sm_.now < until_;
    return held_;
  }
  void issuing(int slot, const sm::IBufferEntry&, uint32_t) override {
    if (slot == 0) rec_.issues.push_back(sm_.now);
  }
  bool wakesOnIssueChanges() const override { return declares_; }

 private:
  sm::SmContext& sm_;
  HoldKind kind_;
  bool declares_;
  uint64_t from_, until_;
  bool held_ = false;
  HoldRecord& rec_;
};

struct HoldRun {
  HoldRecord rec;
  stats::Registry reg;
  uint64_t cycles = 0;
  double stat(const std::string& n) const { return reg.value("sm0." + n).value_or(-1); }
  size_t issuedIn(uint64_t from, uint64_t until) const {
    size_t n = 0;
    for (uint64_t c : rec.issues) n += c >= from && c < until;
    return n;
  }
  uint64_t firstIssueFrom(uint64_t from) const {
    for (uint64_t c : rec.issues)
      if (c >= from) return c;
    return 0;
  }
};

constexpr uint64_t kFrom = 20, kUntil = 35;

void run(HoldRun& r, HoldKind kind, bool declares, uint64_t from = kFrom, uint64_t until = kUntil) {
  const isa::Kernel k = isa::assemble(kernelText(), "hold.s");
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  isa::GlobalMemory mem;
  sm::MechanismFactory f;
  f.attach = [&r, kind, declares, from, until](sm::SmContext& sm, stats::Registry&) {
    return std::make_unique<WindowHold>(sm, kind, declares, from, until, r.rec);
  };
  const sm::GridResult g = sm::runGrid(cfg, f, k, l, mem, r.reg, 10, 0);
  ASSERT_EQ(g.error, "");
  r.cycles = g.cycles;
}

// Without the hold the warp issues through [kFrom, kUntil): the window is inside its run.
TEST(MechanismWake, TheWindowFallsInsideTheWarpsRun) {
  HoldRun free;
  run(free, HoldKind::Unannounced, false, 0, 0);  // (an empty window: no hold)
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_EQ(free.rec.issues.size(), 26u);
  EXPECT_LT(free.rec.issues.front(), kFrom);
  EXPECT_GT(free.rec.issues.back(), kFrom);
  EXPECT_GT(free.issuedIn(kFrom, kUntil), 0u);
  EXPECT_EQ(free.stat("issue.stall.sync"), 0);
}

// A mechanism that does not declare it is asked at every look: a hold that begins unannounced
// stops the warp at once, and the warp issues again in the cycle the hold ends.
TEST(MechanismWake, AnUndeclaredHoldIsSeenAtEveryLook) {
  HoldRun r;
  run(r, HoldKind::Unannounced, false);
  ASSERT_EQ(r.rec.issues.size(), 26u);
  EXPECT_EQ(r.issuedIn(kFrom, kUntil), 0u);
  EXPECT_EQ(r.firstIssueFrom(kFrom), kUntil);
  EXPECT_EQ(r.stat("issue.stall.sync"), static_cast<double>(kUntil - kFrom));
}

// A declaring mechanism wakes the warp when its hold begins; the hold's end, with time alone,
// is still seen in its cycle (a hold is asked again at every look).
TEST(MechanismWake, ADeclaredHoldBeginsWithAWakeAndMayEndWithTime) {
  for (bool declares : {true, false}) {
    HoldRun r;
    run(r, HoldKind::WakeAtStart, declares);
    ASSERT_EQ(r.rec.issues.size(), 26u) << declares;
    EXPECT_EQ(r.issuedIn(kFrom, kUntil), 0u) << declares;
    EXPECT_EQ(r.firstIssueFrom(kFrom), kUntil) << declares;
    EXPECT_EQ(r.stat("issue.stall.sync"), static_cast<double>(kUntil - kFrom)) << declares;
  }
}

// The warp issues again once the mechanism lets it go and wakes it: the same cycles and
// statistics whether it declares it or not.
TEST(MechanismWake, AWokenWarpIssuesWhenTheHoldEnds) {
  HoldRun declared, undeclared;
  run(declared, HoldKind::WakeAtBothEnds, true);
  run(undeclared, HoldKind::WakeAtBothEnds, false);
  EXPECT_EQ(declared.issuedIn(kFrom, kUntil), 0u);
  EXPECT_EQ(declared.firstIssueFrom(kFrom), kUntil);
  EXPECT_EQ(declared.rec.issues, undeclared.rec.issues);
  EXPECT_EQ(declared.cycles, undeclared.cycles);
  EXPECT_EQ(declared.stat("issue.stall.sync"), static_cast<double>(kUntil - kFrom));
  EXPECT_EQ(declared.stat("issue.stall.sync"), undeclared.stat("issue.stall.sync"));
}

class Declares final : public sm::SmMechanism {
 public:
  explicit Declares(bool d) : d_(d) {}
  bool wakesOnIssueChanges() const override { return d_; }

 private:
  bool d_;
};

// A composition declares it only when every mechanism of the list does.
TEST(MechanismWake, ACompositionDeclaresItWhenEveryPartDoes) {
  auto make = [](std::vector<bool> parts) {
    std::vector<std::unique_ptr<sm::SmMechanism>> v;
    for (bool p : parts) v.push_back(std::make_unique<Declares>(p));
    return mechanisms::CompositeMechanism(std::move(v));
  };
  EXPECT_TRUE(make({true, true}).wakesOnIssueChanges());
  EXPECT_FALSE(make({true, false}).wakesOnIssueChanges());
  EXPECT_FALSE(make({false, true}).wakesOnIssueChanges());
  EXPECT_FALSE(sm::SmMechanism().wakesOnIssueChanges());
}

}  // namespace

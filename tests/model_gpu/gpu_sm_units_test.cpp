// Every SM's units are modules of their own under gpu.sm<N>, named by role. With the systemc
// scheduling each has an SC_METHOD that runs its step once per cycle; with the sequential one
// (the default) none has a process: the GPU's clock calls the steps in one loop. That both give
// the same cycles and statistics is checked per scenario and mechanism by the contract tests
// (tests/check_contract.cmake). Each test is its own process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/gpu/platform.h"

using namespace sc_core;
using namespace simtlm;

namespace {

const std::vector<std::string> kUnits = {"icache", "ldst", "shared", "writeback",
                                         "execute", "issue", "operands", "fetch"};

void collect(const std::vector<sc_object*>& objects, std::vector<sc_object*>& out) {
  for (sc_object* o : objects) {
    out.push_back(o);
    collect(o->get_child_objects(), out);
  }
}

sc_object* find(const std::vector<sc_object*>& all, const std::string& name) {
  for (sc_object* o : all)
    if (name == o->name()) return o;
  return nullptr;
}

// The unit modules of SM 0 and 1 of a 2-SM platform, and their processes.
void checkUnits(config::SmScheduling scheduling, bool processes) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  cfg.sm.scheduling = scheduling;
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [](gpu::HostJob&) { return false; });
  sc_start(SC_ZERO_TIME);
  std::vector<sc_object*> all;
  collect(sc_get_top_level_objects(), all);
  for (int i = 0; i < 2; ++i) {
    const std::string sm = "top.gpu.sm" + std::to_string(i);
    sc_object* parent = find(all, sm);
    ASSERT_NE(parent, nullptr) << sm;
    ASSERT_EQ(top.gpu.sm(i).units().size(), kUnits.size());
    for (size_t u = 0; u < kUnits.size(); ++u) {
      const std::string name = sm + "." + kUnits[u];
      sc_object* unit = find(all, name);
      ASSERT_NE(unit, nullptr) << name;
      EXPECT_NE(dynamic_cast<sc_module*>(unit), nullptr) << name;
      EXPECT_EQ(unit->get_parent_object(), parent) << name;
      EXPECT_EQ(top.gpu.sm(i).units()[u].get(), unit) << "units() in pipeline order";
      sc_object* process = find(all, name + ".run");
      if (processes) {
        ASSERT_NE(process, nullptr) << name + ".run";
        EXPECT_STREQ(process->kind(), "sc_method_process") << name;
      } else {
        EXPECT_EQ(process, nullptr) << name << ": a process under the sequential scheduling";
      }
    }
  }
}

}  // namespace

TEST(GpuSmUnits, SequentialSchedulingHasUnitModulesWithoutProcesses) {
  checkUnits(config::SmScheduling::Sequential, false);
}

TEST(GpuSmUnits, SystemcSchedulingGivesEveryUnitItsOwnProcess) {
  checkUnits(config::SmScheduling::Systemc, true);
}

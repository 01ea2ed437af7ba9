// The mechanism layer (docs/mechanisms.md): mechanisms live in model/mechanisms/<name>/ and
// attach through the units' hooks; no file of the units' folders names one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/memory.h"
#include "model/common/config.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

namespace {

namespace fs = std::filesystem;
using simtlm::config::GpuConfig;
using simtlm::config::Mechanism;

// Every line of model/{frontend,sm,regfile,mem} that matches `pattern`, as "FILE:LINE: text".
std::vector<std::string> unitLinesMatching(const std::regex& pattern) {
  std::vector<std::string> found;
  for (const char* unit : {"frontend", "sm", "regfile", "mem"}) {
    const fs::path dir = fs::path(SIMTLM_SOURCE_DIR) / "model" / unit;
    for (const auto& f : fs::recursive_directory_iterator(dir)) {
      if (!f.is_regular_file()) continue;
      std::ifstream in(f.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, pattern))
          found.push_back(fs::relative(f.path(), SIMTLM_SOURCE_DIR).string() + ":" + std::to_string(n) + ": " + line);
    }
  }
  return found;
}

std::string joinedLines(const std::vector<std::string>& lines) {
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  return all;
}

TEST(MechanismLayer, UnitFoldersNameNoMechanism) {
  // The mechanisms of the four papers, by name.
  const auto found = unitLinesMatching(
      std::regex(R"(\b(darsie|bow|dac|dac-ideal|affine|uv|uniform[ -]vector)\b)", std::regex::icase));
  EXPECT_TRUE(found.empty()) << "a unit names a mechanism (add a hook instead):\n" << joinedLines(found);
}

// The units know a mechanism only through sm_mechanism.h: whoever builds the SMs (model/gpu, a
// test's runGrid) looks it up in the registry and hands it in (sm::MechanismFactory).
TEST(MechanismLayer, UnitFoldersIncludeNoMechanism) {
  const auto found = unitLinesMatching(std::regex(R"(^\s*#\s*include\s*["<]model/mechanisms/)"));
  EXPECT_TRUE(found.empty()) << "a unit includes the mechanism layer (take what it needs through "
                                "sm_mechanism.h, handed in by whoever builds the SM):\n"
                             << joinedLines(found);
}

TEST(MechanismLayer, RegistryDeclaresEachMechanismsResources) {
  GpuConfig cfg;
  cfg.darsie.rename_regs = 12;
  cfg.darsie.rename_bank_conflicts = false;
  cfg.mechanism = Mechanism::Baseline;
  EXPECT_EQ(simtlm::mechanisms::resourcesFor(cfg).regsPerBlock, 0);
  EXPECT_EQ(simtlm::mechanisms::resourcesFor(cfg).regsName, "");
  for (Mechanism m : {Mechanism::Darsie, Mechanism::DarsieIgnoreStore, Mechanism::DarsieNoCfSync,
                      Mechanism::DarsieEarlySkip}) {
    cfg.mechanism = m;
    const auto r = simtlm::mechanisms::resourcesFor(cfg);
    EXPECT_EQ(r.regsPerBlock, 12) << simtlm::config::mechanismName(m);
    EXPECT_TRUE(r.regsConflictFree) << simtlm::config::mechanismName(m);
  }
}

// The SMs do not look their mechanism up: a configuration that names one, run without the
// mechanism handed in, is refused rather than silently run as the baseline.
TEST(MechanismLayer, AGridNamingAMechanismNeedsItHandedIn) {
  const simtlm::isa::Kernel k = simtlm::isa::assemble(".kernel k\n.regs 1\n  exit\n", "k.s");
  simtlm::isa::LaunchConfig l;
  l.block = {32, 1, 1};
  GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  simtlm::isa::GlobalMemory mem;
  simtlm::stats::Registry reg;
  EXPECT_EQ(simtlm::sm::runGrid(cfg, k, l, mem, reg).error, "");  // baseline: nothing to hand in
  cfg.mechanism = Mechanism::Darsie;
  simtlm::stats::Registry reg2;
  EXPECT_THROW(simtlm::sm::runGrid(cfg, k, l, mem, reg2), std::invalid_argument);
  simtlm::stats::Registry reg3;
  EXPECT_EQ(simtlm::sm::runGrid(cfg, simtlm::mechanisms::factoryFor(cfg), k, l, mem, reg3).error, "");
}

}  // namespace

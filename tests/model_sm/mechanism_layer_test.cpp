// The mechanism layer (docs/mechanisms.md): mechanisms live in model/mechanisms/<name>/ and
// attach through the units' hooks; no file of the units' folders names one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "model/common/config.h"
#include "model/mechanisms/registry.h"

namespace {

namespace fs = std::filesystem;
using simtlm::config::GpuConfig;
using simtlm::config::Mechanism;

// Every line of model/{frontend,sm,regfile,mem} that names a mechanism of the four papers.
std::vector<std::string> linesNamingAMechanism() {
  const std::regex names(R"(\b(darsie|bow|dac|dac-ideal|affine|uv|uniform[ -]vector)\b)", std::regex::icase);
  std::vector<std::string> found;
  for (const char* unit : {"frontend", "sm", "regfile", "mem"}) {
    const fs::path dir = fs::path(SIMTLM_SOURCE_DIR) / "model" / unit;
    for (const auto& f : fs::recursive_directory_iterator(dir)) {
      if (!f.is_regular_file()) continue;
      std::ifstream in(f.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, names))
          found.push_back(fs::relative(f.path(), SIMTLM_SOURCE_DIR).string() + ":" + std::to_string(n) + ": " + line);
    }
  }
  return found;
}

TEST(MechanismLayer, UnitFoldersNameNoMechanism) {
  const auto found = linesNamingAMechanism();
  std::string all;
  for (const auto& l : found) all += l + "\n";
  EXPECT_TRUE(found.empty()) << "a unit names a mechanism (add a hook instead):\n" << all;
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

}  // namespace

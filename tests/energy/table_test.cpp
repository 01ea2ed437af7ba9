// Energy tables: every shipped table loads; a malformed, incomplete or wrong table is one
// InputError naming the file, line, column and the entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "cli/energy_options.h"
#include "energy_test_support.h"
#include "isa/diagnostics.h"

namespace simtlm {
namespace {

std::string errorOf(const std::string& text) {
  try {
    energy::parseTable(text, "t.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// `text` with the first line containing `needle` removed.
std::string without(std::string text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  const size_t start = text.rfind('\n', at) + 1, end = text.find('\n', at);
  return text.erase(start, end - start + 1);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(EnergyTable, EveryShippedTableLoadsWithASourceForEveryNumber) {
  int n = 0;
  for (const auto& f : std::filesystem::directory_iterator(SIMTLM_SOURCE_DIR "/configs/energy")) {
    if (f.path().extension() != ".yaml") continue;
    const energy::EnergyTable t = cli::loadEnergyTable(f.path().string());
    EXPECT_EQ(t.name, f.path().stem().string());
    ASSERT_EQ(t.components.size(), energy::catalogue().size());
    for (size_t c = 0; c < t.components.size(); ++c) {
      EXPECT_FALSE(t.components[c].staticMw.source.empty());
      for (const auto& e : t.components[c].events) EXPECT_FALSE(e.source.empty());
    }
    ++n;
  }
  EXPECT_GE(n, 5);  // default, darsie_gpuwattch, uv_40nm, bow_28nm, horowitz_45nm
}

TEST(EnergyTable, DefaultHasThePapersRegisterFileAndHorowitzScaledAlus) {
  const energy::EnergyTable t = cli::loadEnergyTable(SIMTLM_SOURCE_DIR "/configs/energy/default.yaml");
  const auto& rf = t.components[static_cast<size_t>(energy::componentIndex("regfile"))];
  EXPECT_EQ(rf.events[0].value, 185.26);  // BOW Table IV
  EXPECT_EQ(t.voltageV.value, 0.96);
  const energy::EnergyTable d = cli::loadEnergyTable(SIMTLM_SOURCE_DIR "/configs/energy/darsie_gpuwattch.yaml");
  const auto& drf = d.components[static_cast<size_t>(energy::componentIndex("regfile"))];
  EXPECT_EQ(drf.events[0].value, 14.2);  // DARSIE Table 2
  EXPECT_EQ(drf.events[1].value, 25.9);
  const energy::EnergyTable h = cli::loadEnergyTable(SIMTLM_SOURCE_DIR "/configs/energy/horowitz_45nm.yaml");
  const auto& in = h.components[static_cast<size_t>(energy::componentIndex("int"))];
  const auto& fp = h.components[static_cast<size_t>(energy::componentIndex("fp"))];
  EXPECT_EQ(in.events[0].value, 0.1);   // 32-bit add
  EXPECT_EQ(in.events[1].value, 3.1);   // 32-bit multiply
  EXPECT_EQ(fp.events[0].value, 4.6);   // FP32 add 0.9 + multiply 3.7
}

TEST(EnergyTable, MissingEventIsNamed) {
  const std::string msg = errorOf(without(test::tableText({}), "    write: {pj: 0"));
  EXPECT_NE(msg.find("components.regfile: missing entry 'write'"), std::string::npos) << msg;
  EXPECT_TRUE(std::regex_search(msg, std::regex("^t\\.yaml:[0-9]+:[0-9]+: error: "))) << msg;
}

TEST(EnergyTable, MissingStaticPowerIsNamed) {
  std::string text = test::tableText({});
  text = replaced(text, "  regfile:\n    read: {pj: 0, source: test}\n    write: {pj: 0, source: test}\n    static: {mw: 0, source: test}\n",
                  "  regfile:\n    read: {pj: 0, source: test}\n    write: {pj: 0, source: test}\n");
  const std::string msg = errorOf(text);
  EXPECT_NE(msg.find("components.regfile: missing entry 'static'"), std::string::npos) << msg;
}

TEST(EnergyTable, MissingComponentIsNamed) {
  std::string text = test::tableText({});
  const size_t at = text.find("  sfu:\n");
  text.erase(at, text.find("  ldst:\n") - at);
  const std::string msg = errorOf(text);
  EXPECT_NE(msg.find("components: missing entry 'sfu'"), std::string::npos) << msg;
}

TEST(EnergyTable, UnknownComponentIsAnError) {
  const std::string msg = errorOf(replaced(test::tableText({}), "  regfile:\n", "  regfiel:\n    read: {pj: 1, source: x}\n  regfile:\n"));
  EXPECT_NE(msg.find("unknown key 'regfiel'; did you mean 'regfile'?"), std::string::npos) << msg;
}

TEST(EnergyTable, UnknownEventIsAnError) {
  const std::string msg = errorOf(replaced(test::tableText({}), "  regfile:\n", "  regfile:\n    erase: {pj: 1, source: x}\n"));
  EXPECT_NE(msg.find("components.regfile: unknown key 'erase'"), std::string::npos) << msg;
}

TEST(EnergyTable, NegativeEnergyIsAnError) {
  const std::string msg = errorOf(test::tableText({{"fp.op", -1.5}}));
  EXPECT_NE(msg.find("components.fp.op.pj: must not be negative"), std::string::npos) << msg;
}

TEST(EnergyTable, EveryNumberNeedsASource) {
  std::string msg = errorOf(replaced(test::tableText({}), "    op: {pj: 0, source: test}", "    op: {pj: 0}"));
  EXPECT_NE(msg.find("components.int.op: missing 'source'"), std::string::npos) << msg;
  msg = errorOf(replaced(test::tableText({}), "    op: {pj: 0, source: test}", "    op: {pj: 0, source: ' '}"));
  EXPECT_NE(msg.find("the source must say where the number comes from"), std::string::npos) << msg;
  msg = errorOf(replaced(test::tableText({}), "    op: {pj: 0, source: test}", "    op: 3"));
  EXPECT_NE(msg.find("expected {pj: NUMBER, source:"), std::string::npos) << msg;
}

TEST(EnergyTable, MalformedYamlAndBadTechnologyAreErrors) {
  EXPECT_NE(errorOf("components: [").find("YAML syntax"), std::string::npos);
  EXPECT_NE(errorOf("").find("empty energy table"), std::string::npos);
  const std::string v = errorOf(replaced(test::tableText({}), "voltage: {v: 1,", "voltage: {v: 0,"));
  EXPECT_NE(v.find("technology.voltage.v: 0 is outside [0.1, 5]"), std::string::npos) << v;
  const std::string t = errorOf(without(test::tableText({}), "  clock: {mhz"));
  EXPECT_NE(t.find("technology: missing entry 'clock'"), std::string::npos) << t;
}

TEST(EnergyTable, UnreadableFileIsNamed) {
  try {
    cli::loadEnergyTable("/nonexistent/table.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/table.yaml: error: cannot open the energy table: No such file or directory");
  }
}

}  // namespace
}  // namespace simtlm

// Nothing crashes on any input: every shipped scenario, mutated many times (characters deleted,
// YAML punctuation and odd values inserted, lines repeated, swapped or cut), either loads or
// fails with one InputError; small ones that load are also run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "cli/scenario_run.h"
#include "isa/diagnostics.h"
#include "tests/scenario/scenario_test_support.h"

using namespace simtlm;

namespace {

const std::vector<std::string> kTokens = {
    ":", "-", "- ", "[", "]", "{", "}", ",", "\n", "\n  ", " ", "\t", "#", "'", "\"", "&a ", "*a", "!!str ",
    "!!map ", "? ", "|", ">", "~", "null", "0", "-1", "0x", "4294967296", "1e40", ".nan", ".inf", "1.5",
    "99999999999999999999", "words", "init", "zeros", "ramp", "random", "file", "kernel", "workload",
    "params", "buffer", "stat", "equals", "expect_error", "\xff", "%", "@", "`"};

std::string mutate(std::string text, std::mt19937& rng) {
  auto pick = [&](size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng) : 0; };
  int edits = 1 + static_cast<int>(pick(3));
  for (int e = 0; e < edits; ++e) {
    size_t at = pick(text.size() + 1);
    switch (pick(6)) {
      case 0: text.erase(at, 1 + pick(6)); break;
      case 1: text.insert(at, kTokens[pick(kTokens.size())]); break;
      case 2: text.insert(at, kTokens[pick(kTokens.size())] + kTokens[pick(kTokens.size())]); break;
      case 3: {  // repeat a line
        size_t b = text.rfind('\n', at == 0 ? 0 : at - 1), end = text.find('\n', at);
        b = b == std::string::npos ? 0 : b + 1;
        if (end != std::string::npos) text.insert(end + 1, text.substr(b, end - b) + "\n");
        break;
      }
      case 4: {  // swap two characters far apart
        size_t other = pick(text.size());
        if (at < text.size()) std::swap(text[at], text[other]);
        break;
      }
      default: text.resize(at); break;
    }
  }
  return text;
}

// Small enough to run inside a unit test.
bool small(const scenario::Scenario& s) {
  uint64_t words = 0;
  for (const auto& b : s.buffers) words += b.words;
  for (const auto& l : s.launches) {
    if (l.workload && l.workload->name() != "fig3") return false;
    if (l.grid.count() * l.block.count() > 20000) return false;
  }
  return words <= (1u << 16);
}

}  // namespace

class ScenarioFuzz : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioFuzz, MutatedScenariosLoadOrFailCleanly) {
  std::ifstream in(GetParam());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string original = ss.str();
  // SIMTLM_FUZZ_ITERATIONS and SIMTLM_FUZZ_SEED allow longer runs by hand.
  const char* n = std::getenv("SIMTLM_FUZZ_ITERATIONS");
  const char* seed = std::getenv("SIMTLM_FUZZ_SEED");
  std::mt19937 rng(seed ? static_cast<unsigned>(std::atoi(seed)) : 12345u);
  int loaded = 0, rejected = 0, ran = 0, iterations = n ? std::atoi(n) : 400;
  for (int i = 0; i < iterations; ++i) {
    std::string text = mutate(original, rng);
    try {
      scenario::Scenario s = scenario::loadScenarioText(text, "fuzz.yaml", SIMTLM_SOURCE_DIR "/scenarios");
      ++loaded;
      if (small(s)) {
        scenario::runScenario(s, i % 2 == 0);
        ++ran;
      }
    } catch (const InputError& e) {
      ++rejected;
      std::string what = e.what();
      ASSERT_FALSE(what.empty());
    } catch (const std::exception& e) {
      FAIL() << "mutation " << i << " threw " << typeid(e).name() << ": " << e.what() << "\n--- input ---\n" << text;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded, 0);
  RecordProperty("ran", ran);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioFuzz,
                         ::testing::ValuesIn(test::filesIn(SIMTLM_SOURCE_DIR "/scenarios", ".yaml")),
                         [](const auto& info) { return test::stemName(info.param); });

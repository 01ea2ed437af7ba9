// The parameter table, value syntax, --set overrides and the error for each kind of bad input.
#include <gtest/gtest.h>

#include <set>

#include "isa/diagnostics.h"
#include "cli/config_loader.h"
#include "model/common/params.h"

using namespace simtlm::config;

namespace {

// The message `f` throws (of type E), or "" if it throws nothing.
template <class E, class F>
std::string messageOf(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

std::string loadError(const std::string& ini) {
  return messageOf<simtlm::InputError>([&] { ConfigLoader().loadText(ini, "bad.ini"); });
}

std::string setError(const std::string& assignment) {
  return messageOf<ConfigError>([&] { ConfigLoader().set(assignment); });
}

}  // namespace

TEST(Config, DefaultsAreValidAndThePascalBaseline) {
  GpuConfig c;
  EXPECT_NO_THROW(checkConfig(c));
  EXPECT_EQ(c.gpu.num_sms, 28);
  EXPECT_EQ(c.sm.num_warps, 64);
  EXPECT_EQ(c.issue.policy, SchedPolicy::Gto);
  EXPECT_EQ(c.tlm.mode, TlmMode::At);
  EXPECT_EQ(c.exec.latencyOf(simtlm::isa::OpClass::IntDiv), 145);
  EXPECT_EQ(c.exec.latencyOf(simtlm::isa::OpClass::Fp), 4);
  EXPECT_NO_THROW(ConfigLoader().resolve());
}

TEST(Config, TableKeysAreUniqueAndDescribed) {
  std::set<std::string> keys;
  for (const auto& p : params()) {
    EXPECT_TRUE(keys.insert(p.key).second) << p.key;
    EXPECT_FALSE(p.description.empty()) << p.key;
    EXPECT_NE(p.key.find('.'), std::string::npos) << p.key;
    if (p.type == ParamType::Int || p.type == ParamType::Double) {
      EXPECT_FALSE(p.unit.empty()) << p.key;
    }
    GpuConfig c;
    EXPECT_EQ(p.format(c), p.defaultText) << p.key;  // the default round-trips
  }
  EXPECT_EQ(params().size(), 100u + simtlm::isa::kNumOpClasses);  // 100: sim.threads, sim.adapt_threads
  EXPECT_NE(findParam("exec.latency.load_shared"), nullptr);
  EXPECT_NE(findParam("sm.scheduling"), nullptr);
}

TEST(Config, JsonHasEveryKeyWithTypedValues) {
  auto j = toJson(GpuConfig());
  EXPECT_EQ(j.size(), params().size());
  EXPECT_EQ(j["sm.num_warps"], 64);
  EXPECT_EQ(j["dram.bytes_per_cycle"], 327.0);
  EXPECT_EQ(j["l2.enabled"], true);
  EXPECT_EQ(j["issue.policy"], "gto");
  EXPECT_EQ(j["shared.size"], 98304);
}

TEST(Config, ValueSyntax) {
  ConfigLoader l;
  l.setAll({"shared.size=48K", "l2.size = 2MiB", "l1.enabled=no", "issue.policy=LRR",
         "dram.bytes_per_cycle=12.5", "gpu.num_sms=0x10"});
  const GpuConfig& c = l.current();
  EXPECT_EQ(c.shared.size, 48 * 1024);
  EXPECT_EQ(c.l2.size, 2 * 1024 * 1024);
  EXPECT_FALSE(c.l1.enabled);
  EXPECT_EQ(c.issue.policy, SchedPolicy::Lrr);
  EXPECT_DOUBLE_EQ(c.dram.bytes_per_cycle, 12.5);
  EXPECT_EQ(c.gpu.num_sms, 16);
  EXPECT_EQ(l.origin("shared.size"), "--set");
  EXPECT_EQ(l.origin("sm.num_warps"), "");
}

TEST(Config, SetOverridesFileAndLaterSetWins) {
  ConfigLoader l;
  l.loadText("[sm]\nnum_warps = 32   # comment\n[issue]\nschedulers = 2\n", "a.ini");
  EXPECT_EQ(l.current().sm.num_warps, 32);
  EXPECT_EQ(l.origin("sm.num_warps"), "a.ini:2");
  l.setAll({"sm.num_warps=48", "sm.num_warps=40"});
  GpuConfig c = l.resolve();
  EXPECT_EQ(c.sm.num_warps, 40);
  EXPECT_EQ(c.issue.schedulers, 2);
  EXPECT_EQ(l.origin("sm.num_warps"), "--set");
}

TEST(Config, UnknownKeySuggestsTheClosest) {
  EXPECT_EQ(loadError("[sm]\nnum_warp = 3\n"),
            "bad.ini:2:1: error: unknown parameter 'sm.num_warp'; did you mean 'sm.num_warps'?");
  EXPECT_EQ(setError("num_warps=3"),
            "--set 'num_warps=3': unknown parameter 'num_warps'; did you mean 'sm.num_warps'?");
  EXPECT_EQ(setError("gpu.frobnicate=1"),
            "--set 'gpu.frobnicate=1': unknown parameter 'gpu.frobnicate' (simtlm params lists them all)");
}

TEST(Config, WrongTypeNamesKeyValueAndExpectation) {
  EXPECT_EQ(loadError("[gpu]\n\nnum_sms = many\n"),
            "bad.ini:3:1: error: gpu.num_sms = 'many': not an integer");
  EXPECT_EQ(setError("dram.bytes_per_cycle=fast"),
            "--set 'dram.bytes_per_cycle=fast': dram.bytes_per_cycle = 'fast': not a number");
  EXPECT_EQ(setError("l2.enabled=maybe"),
            "--set 'l2.enabled=maybe': l2.enabled = 'maybe': not a boolean (true|false, yes|no, on|off, 1|0)");
  EXPECT_EQ(setError("l1.size=12Q"),
            "--set 'l1.size=12Q': l1.size = '12Q': not an integer number of bytes (K and M suffixes allowed)");
  EXPECT_EQ(setError("sm.num_warps=3.5"), "--set 'sm.num_warps=3.5': sm.num_warps = '3.5': not an integer");
}

TEST(Config, OutOfRangeGivesTheRangeAndUnit) {
  EXPECT_EQ(loadError("[sm]\n  num_warps = 3000\n"),
            "bad.ini:2:3: error: sm.num_warps = '3000': out of range [1, 1024] warps");
  EXPECT_EQ(setError("gpu.warp_size=64"),
            "--set 'gpu.warp_size=64': gpu.warp_size = '64': out of range [1, 32] threads");
  EXPECT_EQ(setError("dram.bytes_per_cycle=0"),
            "--set 'dram.bytes_per_cycle=0': dram.bytes_per_cycle = '0': out of range [0.001, 1000000] bytes/cycle");
}

TEST(Config, BadEnumListsTheChoices) {
  EXPECT_EQ(loadError("[issue]\npolicy = fifo\n"),
            "bad.ini:2:1: error: issue.policy = 'fifo': not one of gto|lrr");
  EXPECT_EQ(setError("tlm.mode=ca"), "--set 'tlm.mode=ca': tlm.mode = 'ca': not one of at|lt");
}

TEST(Config, MalformedFiles) {
  EXPECT_EQ(loadError("[sm]\nnum_warps 3\n"),
            "bad.ini:2:1: error: malformed line 'num_warps 3' (expected [section] or key = value)");
  EXPECT_EQ(loadError("[sm]\nnum_warps = 8\nnum_warps = 16\n"),
            "bad.ini:3:1: error: sm.num_warps is set twice (first on line 2)");
  // A section named with a trailing dot: Boost does not double the dot (a fuzzer found that the
  // key's lines were then not found, and the message read past the end of the list).
  EXPECT_EQ(loadError("[dram.]\nbytes_per_cycle=3\nbytes_per_cycle="),
            "bad.ini:3:1: error: dram.bytes_per_cycle is set twice (first on line 2)");
  EXPECT_EQ(loadError("[dram.]\nbytes_per_cycle=0\n"),
            "bad.ini:2:1: error: dram.bytes_per_cycle = '0': out of range [0.001, 1000000] bytes/cycle");
  EXPECT_EQ(setError("sm.num_warps"), "--set 'sm.num_warps': expected key=value");
  EXPECT_EQ(messageOf<simtlm::InputError>([] { ConfigLoader().loadFile("/nonexistent/x.ini"); }),
            "/nonexistent/x.ini: error: cannot open the configuration file: No such file or directory");
}

TEST(Config, BadFileLeavesLoaderUnchanged) {
  ConfigLoader l;
  EXPECT_THROW(l.loadText("[sm]\nnum_warps = 8\nmax_blocks = zero\n", "bad.ini"), simtlm::InputError);
  EXPECT_EQ(l.current().sm.num_warps, 64);
  EXPECT_EQ(l.origin("sm.num_warps"), "");
}

TEST(Config, CrossFieldChecksNameTheParametersAndWhereTheyCameFrom) {
  auto resolveError = [](std::vector<std::string> sets) {
    return messageOf<ConfigError>([&] { ConfigLoader l; l.setAll(sets); l.resolve(); });
  };
  EXPECT_EQ(resolveError({"sm.num_warps=62"}),
            "sm.num_warps = 62 must be a multiple of issue.schedulers = 4 (warps are partitioned "
            "statically among the schedulers) [sm.num_warps from --set]");
  EXPECT_EQ(resolveError({"l1.enabled=true", "l1.size=1000"}),
            "l1.size = 1000 must be a multiple of l1.line * l1.assoc = 12288 (whole L1 sets) "
            "[l1.size from --set]");
  EXPECT_EQ(resolveError({"l2.size=2M"}),
            "l2.size = 2097152 must be a multiple of dram.channels * l2.sub_partitions * l2.line * "
            "l2.assoc = 45056 (every slice holds whole sets) [l2.size from --set]");
  EXPECT_EQ(resolveError({"dram.banks_per_channel=12"}),
            "dram.banks_per_channel = 12 must be a power of two with dram.scheduler=frfcfs (banks "
            "are address bits) [dram.banks_per_channel from --set]");
  // The L1 is checked even when disabled: it caches ld.global.nc loads.
  EXPECT_EQ(resolveError({"l1.enabled=false", "l1.size=1000"}),
            "l1.size = 1000 must be a multiple of l1.line * l1.assoc = 12288 (whole L1 sets) "
            "[l1.size from --set]");
  EXPECT_EQ(resolveError({"const_cache.size=1000"}),
            "const_cache.size = 1000 must be a multiple of l1.line * const_cache.assoc = 256 "
            "(whole constant cache sets; its line is l1.line) [const_cache.size from --set]");
  EXPECT_EQ(resolveError({"l2.line=96"}), "l2.line = 96 must be a power of two [l2.line from --set]");
  EXPECT_EQ(resolveError({"exec.simd_width=12"}),
            "gpu.warp_size = 32 must be a multiple of exec.simd_width = 12 [exec.simd_width from --set]");
  EXPECT_EQ(resolveError({"sm.max_blocks=65"}),
            "sm.max_blocks = 65 exceeds sm.num_warps = 64 (every resident block needs at least one "
            "warp) [sm.max_blocks from --set]");
  EXPECT_EQ(resolveError({"regfile.banks=3"}),
            "sm.num_registers = 65536 / gpu.warp_size must be a multiple of regfile.banks = 3 "
            "(every bank holds the same number of warp registers) [regfile.banks from --set]");
  EXPECT_EQ(resolveError({"regfile.collectors=2"}),
            "regfile.collectors = 2 is less than issue.schedulers = 4 (each scheduler needs a "
            "collector to issue into) [regfile.collectors from --set]");
}

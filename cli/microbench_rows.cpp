// The microbenchmark rows. Targets and why each tolerance is what it is: docs/microbenchmarks.md.
// Sources (short keys, spelled out in the table's legend and in the docs):
//   [GS]  GPGPU-Sim configs/tested-cfgs/SM6_TITANX/gpgpusim.config (GP102), the values
//         configs/pascal.ini cites;
//   [AT]  Accel-Sim's tuner, util/tuner/GPU_Microbenchmark (l2_lat: -gpgpu_l2_rop_latency =
//         L2 hit - L1 hit latency; mem_lat: -dram_latency = memory - L2 hit latency), which
//         fixes what the [GS] latencies mean as measured pointer-chase latencies;
//   [CG]  NVIDIA CUDA C Programming Guide, "Arithmetic Instructions" throughput table, compute
//         capability 6.1 (results per clock per SM), and "Shared Memory" (32 banks, 32 bits
//         per bank per clock; an n-way conflict is split into n conflict-free requests);
//   [TI]  GTX 1080 Ti specification: 484 GB/s at the 1480 MHz core clock = 327 B/cycle.
#include "cli/microbench_rows.h"

#include <cctype>
#include <cmath>

namespace simtlm::cli::microbench {
namespace {

double stat(const nlohmann::json& launch, const std::string& name) {
  const auto& s = launch.at("stats");
  return s.contains(name) ? s.at(name).get<double>() : 0.0;
}

double cycles(const Launches& l, size_t i) { return stat(l.at(i), "gpu.cycles"); }

// Sum of smN.exec.<class>.warp_instructions over the SMs and the given classes.
double warpInstructions(const nlohmann::json& launch, const std::vector<std::string>& classes) {
  double sum = 0;
  for (auto it = launch.at("stats").begin(); it != launch.at("stats").end(); ++it) {
    const std::string& k = it.key();
    if (k.rfind("sm", 0) != 0 || k.size() < 3 || !std::isdigit(static_cast<unsigned char>(k[2]))) continue;
    for (const auto& c : classes)
      if (k.size() > c.size() + 24 && k.compare(k.size() - c.size() - 24, std::string::npos,
                                                ".exec." + c + ".warp_instructions") == 0)
        sum += it->get<double>();
  }
  return sum;
}

// (cycles of launch b - cycles of launch a) / n: the cost of n more operations.
std::function<double(const Launches&)> perOp(size_t a, size_t b, double n) {
  return [=](const Launches& l) { return (cycles(l, b) - cycles(l, a)) / n; };
}

// n more operations (bytes, atomics) / (cycles of b - cycles of a).
std::function<double(const Launches&)> rate(size_t a, size_t b, double n) {
  return [=](const Launches& l) { return n / (cycles(l, b) - cycles(l, a)); };
}

// Warp instructions of `classes` per cycle per SM, between launches a and b, on `sms` SMs.
std::function<double(const Launches&)> issueRate(size_t a, size_t b, std::vector<std::string> classes, int sms) {
  return [=](const Launches& l) {
    return (warpInstructions(l.at(b), classes) - warpInstructions(l.at(a), classes)) /
           (cycles(l, b) - cycles(l, a)) / sms;
  };
}

Row row(std::string name, std::string unit, int run, std::function<double(const Launches&)> value, double target,
        double relTol, std::string source) {
  Row r;
  r.name = std::move(name);
  r.unit = std::move(unit);
  r.run = run;
  r.value = std::move(value);
  r.target = target;
  r.lo = target * (1 - relTol);
  r.hi = target * (1 + relTol);
  r.tolerance = "+-" + std::to_string(static_cast<int>(std::lround(relTol * 100))) + "%";
  r.source = std::move(source);
  return r;
}

Row withGap(Row r, double lo, double hi) {
  r.gap = true;
  r.gapLo = lo;
  r.gapHi = hi;
  return r;
}

const std::vector<std::string> kSpClasses = {"int", "int_mul", "fp", "convert", "move", "compare", "predicate", "nop"};
constexpr double kStreamBytes = 2 * 458752.0;  // two iterations of 56 x 512 threads x 4 words
constexpr double kAtomics = 14336.0 * 8;       // 56 x 256 threads, two iterations of four
constexpr double kAtomicsDistinct = 14336.0 * 64;  // ... sixteen iterations of four

std::vector<Row> makeRows() {
  std::vector<Row> r;
  r.push_back(row("L1 hit latency (l1.enabled=true)", "cycles/load", 1, perOp(1, 2, 256), 82, 0.10,
                  "[GS] -gpgpu_l1_latency 82"));
  r.push_back(row("L1 hit latency, ld.global.nc", "cycles/load", 8, perOp(1, 2, 256), 82, 0.10,
                  "[GS] -gpgpu_l1_latency 82 (.nc loads use the L1 with gmem_skip_L1D 1)"));
  {
    // GPGPU-Sim's Pascal configuration has a perfect constant cache; no measured figure found.
    Row c = row("constant cache hit latency", "cycles/load", 8, perOp(4, 5, 256), std::nan(""), 0, "none found");
    c.tolerance = "-";
    r.push_back(withGap(c, 10, 11.5));
  }
  r.push_back(withGap(row("L2 hit latency", "cycles/load", 0, perOp(1, 2, 256), 82 + 120, 0.10,
                          "[GS] l1 82 + -gpgpu_l2_rop_latency 120, as [AT]"),
                      115, 135));
  r.push_back(withGap(row("DRAM latency (row conflict)", "cycles/load", 2, perOp(1, 2, 16), 82 + 120 + 100, 0.10,
                          "[GS] 202 + -dram_latency 100, as [AT]"),
                      245, 275));
  {
    Row s = row("stream loads, 28 SMs", "bytes/cycle", 3, rate(1, 2, kStreamBytes), 327, 0, "[TI] 484 GB/s");
    s.lo = 0.70 * 327;  // sustained streams reach a fraction of the pin bandwidth, never more
    s.hi = 327;
    s.tolerance = "70-100%";
    r.push_back(s);
    Row t = s;
    t.name = "stream stores, 28 SMs";
    t.run = 4;
    // One launch alone (launch 3: 3 x 458,752 bytes), in the steady state where every store
    // evicts a dirty line of the launch before; the L2's bounded queue towards DRAM holds the
    // stores to DRAM's rate (docs/microbenchmarks.md).
    t.value = [](const Launches& l) { return 3 * 458752.0 / cycles(l, 2); };
    r.push_back(t);
  }
  const int ways[] = {1, 2, 4, 8, 16, 32};
  for (size_t i = 0; i < 6; ++i) {
    const int n = ways[i];
    Row s = row("shared " + std::to_string(n) + "-way conflict", "cycles/access", 5, perOp(1 + 2 * i, 2 + 2 * i, 32),
                24 + (n - 1), 0.10, "[GS] -gpgpu_smem_latency 24 + (n-1) [CG]");
    // simtlm's dependent shared load takes 4 cycles more than the latency parameter (docs).
    r.push_back(28.0 + (n - 1) > s.hi ? withGap(s, 27 + (n - 1), 29 + (n - 1)) : s);
  }
  {
    Row a = row("ALU issue, add.f32", "warp instr/cycle/SM", 6, issueRate(1, 2, kSpClasses, 28), 4, 0,
                "[CG] cc 6.1: 128 FP32 results/clk/SM");
    a.lo = 0.9 * 4;
    a.hi = 4;
    a.tolerance = "90-100%";
    r.push_back(a);
    Row s = a;
    s.name = "SFU issue, rcp.f32";
    s.value = issueRate(4, 5, {"sfu"}, 28);
    s.target = 1;
    s.lo = 0.9;
    s.hi = 1;
    s.source = "[CG] cc 6.1: 32 special-function results/clk/SM";
    s.gap = false;
    r.push_back(s);
  }
  r.push_back(withGap(row("ALU dependent chain, add.f32", "cycles/instr", 6, perOp(7, 8, 32 * 8), 4, 0.10,
                          "[GS] -ptx_opcode_latency_fp 4"),
                      7.5, 9));
  r.push_back(withGap(row("SFU dependent chain, rcp.f32", "cycles/instr", 6, perOp(10, 11, 32 * 8), 20, 0.10,
                          "[GS] -ptx_opcode_latency_sfu 20"),
                      24, 28));
  {
    Row a = row("atomics, one address", "atomics/cycle", 7, rate(1, 2, kAtomics), std::nan(""), 0, "none found");
    a.tolerance = "-";
    r.push_back(withGap(a, 30, 38));
    a.name = "atomics, distinct addresses";
    a.value = rate(3, 4, kAtomicsDistinct);
    r.push_back(withGap(a, 430, 540));
  }
  return r;
}

}  // namespace

const std::vector<Run>& runs() {
  static const std::vector<Run> r = {
      {"chase_cached.yaml", {}},
      {"chase_cached.yaml", {"l1.enabled=true"}},
      {"chase_dram.yaml", {}},
      {"stream_load.yaml", {}},
      {"stream_store.yaml", {}},
      {"shared_conflicts.yaml", {}},
      {"compute.yaml", {}},
      {"atomics.yaml", {}},
      {"chase_readonly.yaml", {}},
  };
  return r;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> r = makeRows();
  return r;
}

std::string status(const Row& r, double value) {
  if (!std::isnan(r.target) && value >= r.lo && value <= r.hi) return "pass";
  if (r.gap && value >= r.gapLo && value <= r.gapHi) return "gap";
  return "FAIL";
}

}  // namespace simtlm::cli::microbench

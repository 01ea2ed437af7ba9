// The microbenchmark rows. Targets and why each tolerance is what it is: docs/microbenchmarks.md.
// Targets are measurements of Pascal parts where one is published; GPGPU-Sim's configuration
// value stands beside each as `config`. Sources (short keys, spelled out in the table's legend
// and in the docs):
//   [JIA] Jia, Maggioni, Smith, Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
//         Microbenchmarking", arXiv 1804.06826: Table 3.1 (memory latencies) and Table 4.1
//         (dependent instruction latencies) for P4 (GP104, the SM of GP102) and P100;
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
#include <stdexcept>

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

Row withConfig(Row r, double config) {
  r.config = config;
  return r;
}

std::vector<Row> makeRows() {
  std::vector<Row> r;
  r.push_back(withConfig(row("L1 hit latency (l1.enabled=true)", "cycles/load", 1, perOp(1, 2, 256), 82, 0.10,
                             "[JIA] T3.1 P4, P100"),
                         82));
  r.push_back(withConfig(row("L1 hit latency, ld.global.nc", "cycles/load", 8, perOp(1, 2, 256), 82, 0.10,
                             "[JIA] T3.1 (.nc loads use the L1 with gmem_skip_L1D 1)"),
                         82));
  r.push_back(row("constant cache hit latency", "cycles/load", 8, perOp(4, 5, 256), 25, 0.10,
                  "[JIA] T3.1 (GPGPU-Sim: a perfect constant cache)"));
  r.push_back(withConfig(row("L2 hit latency", "cycles/load", 0, perOp(1, 2, 256), 216, 0.10,
                             "[JIA] T3.1 P4 (P100: 234); config: [GS] 82 + 120, as [AT]"),
                         82 + 120));
  r.push_back(withGap(withConfig(row("DRAM latency (row conflict)", "cycles/load", 2, perOp(1, 2, 16), 82 + 120 + 100,
                                     0.10, "[GS] 202 + -dram_latency 100, as [AT] (no Pascal measurement)"),
                                 82 + 120 + 100),
                      320, 350));
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
    r.push_back(withConfig(row("shared " + std::to_string(n) + "-way conflict", "cycles/access", 5,
                               perOp(1 + 2 * i, 2 + 2 * i, 32), 23 + (n - 1), 0.10,
                               "[JIA] T3.1 P4 23 (P100: 24) + (n-1) [CG]"),
                           24 + (n - 1)));
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
    r.push_back(s);
  }
  r.push_back(withConfig(row("ALU dependent chain, add.f32", "cycles/instr", 6, perOp(7, 8, 32 * 32), 6, 0.10,
                             "[JIA] T4.1 Pascal; config: -ptx_opcode_latency_fp"),
                         4));
  r.push_back(withConfig(row("ALU dependent chain, add.u32", "cycles/instr", 6, perOp(13, 14, 8 * 32), 6, 0.10,
                             "[JIA] T4.1 Pascal; config: -ptx_opcode_latency_int"),
                         4));
  // selp reads two registers through a single-ported collector: one cycle more than the GPU,
  // whose operand reuse cache supplies the unchanged ones (docs).
  r.push_back(withGap(withConfig(row("setp + selp dependent pair", "cycles/pair", 6, perOp(16, 17, 8 * 32), 12,
                                     0.10, "[JIA] T4.1 Pascal; config: two ALU latencies"),
                                 8),
                      12.5, 13.6));
  r.push_back(withConfig(row("SFU dependent chain, rcp.f32", "cycles/instr", 6, perOp(10, 11, 32 * 8), 14, 0.10,
                             "[JIA] T4.1 Pascal; config: -ptx_opcode_latency_sfu"),
                         20));
  r.push_back(row("shared atomic, no contention", "cycles/atomic", 9, perOp(1, 2, 128), 15.5, 0.10,
                  "[JIA] T4.2 P100 15, P4 16"));
  r.push_back(row("shared atomic, 32 on one address", "cycles/atomic", 9, perOp(4, 5, 128), 78, 0.10,
                  "[JIA] T4.2 Pascal"));
  {
    // The published global figures (26-30, 50-51 cycles) lie below the same part's L2 hit
    // latency, where global atomics are performed: not a dependent atomic's round trip (docs).
    Row a = row("global atomic, no contention", "cycles/atomic", 9, perOp(7, 8, 128), std::nan(""), 0, "none adopted");
    a.tolerance = "-";
    r.push_back(withGap(a, 200, 235));
    a.name = "global atomic, 32 on one address";
    a.value = perOp(10, 11, 128);
    r.push_back(withGap(a, 195, 235));
  }
  {
    Row a = row("atomics, one address", "atomics/cycle", 7, rate(1, 2, kAtomics), std::nan(""), 0, "none found");
    a.tolerance = "-";
    r.push_back(withGap(a, 30, 38));
    a.name = "atomics, distinct addresses";
    a.value = rate(3, 4, kAtomicsDistinct);
    r.push_back(withGap(a, 260, 320));
  }
  return r;
}

// The CUDA twin of the assembly row `name`: the same target, configuration value, tolerance and
// source, measured on CUDA run `run` (by `value`, or by the assembly row's own value function when
// the CUDA scenario keeps the assembly scenario's launches).
Row twin(const std::string& name, int run, std::function<double(const Launches&)> value = nullptr) {
  for (const Row& a : rows(Source::Assembly))
    if (a.name == name) {
      Row r = a;
      r.run = run;
      if (value) r.value = std::move(value);
      r.twin = name;
      return r;
    }
  throw std::logic_error("microbench: no assembly row '" + name + "'");
}

// The CUDA rows (docs/microbenchmarks.md, "CUDA rows"): runs 0-6 of runs(Source::Cuda). A gap
// range here is a documented difference between nvcc's code and the .s kernel's.
std::vector<Row> makeCudaRows() {
  std::vector<Row> r;
  // A global or constant chase step is an add (the chain's base plus the offset loaded) and the
  // load, and every fourth step also a move: one ALU latency and a quarter more than the .s step.
  r.push_back(withGap(twin("L1 hit latency (l1.enabled=true)", 1), 89, 92));
  r.push_back(withGap(twin("L1 hit latency, ld.global.nc", 5), 89, 92));
  r.push_back(withGap(twin("constant cache hit latency", 5), 32.5, 35));
  r.push_back(twin("L2 hit latency", 0));
  r.push_back(withGap(twin("DRAM latency (row conflict)", 2), 326, 356));
  const int ways[] = {1, 2, 4, 8, 16, 32};
  for (size_t i = 0; i < 6; ++i) r.push_back(twin("shared " + std::to_string(ways[i]) + "-way conflict", 3));
  r.push_back(twin("ALU dependent chain, add.f32", 4, perOp(1, 2, 32 * 32)));
  {
    Row f = twin("ALU dependent chain, add.f32", 4, perOp(4, 5, 32 * 32));
    f.name = "ALU dependent chain, fma.f32";
    f.twin.clear();  // no assembly kernel
    // Two distinct register sources through the single-ported collector (as setp + selp).
    r.push_back(withGap(f, 7.3, 7.7));
  }
  r.push_back(twin("ALU dependent chain, add.u32", 4, perOp(10, 11, 8 * 32)));
  r.push_back(twin("setp + selp dependent pair", 4, perOp(13, 14, 8 * 32)));
  r.push_back(twin("SFU dependent chain, rcp.f32", 4, perOp(7, 8, 32 * 8)));
  // nvcc rematerializes the shared word's address (a mov) at the top of every iteration, and the
  // first atomic waits for it behind the loop counter's chain: about 5 cycles per 16 atomics.
  r.push_back(withGap(twin("shared atomic, no contention", 6), 17.1, 17.6));
  for (const char* n : {"shared atomic, 32 on one address", "global atomic, no contention",
                        "global atomic, 32 on one address"})
    r.push_back(twin(n, 6));
  return r;
}

}  // namespace

const std::vector<Run>& runs(Source source) {
  static const std::vector<Run> cuda = {
      {"cuda/chase_cached.yaml", {}},
      {"cuda/chase_cached.yaml", {"l1.enabled=true"}},
      {"cuda/chase_dram.yaml", {}},
      {"cuda/shared_conflicts.yaml", {}},
      {"cuda/compute.yaml", {}},
      {"cuda/chase_readonly.yaml", {}},
      {"cuda/atomic_latency.yaml", {}},
  };
  if (source == Source::Cuda) return cuda;
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
      {"atomic_latency.yaml", {}},
  };
  return r;
}

const std::vector<Row>& rows(Source source) {
  static const std::vector<Row> r = makeRows();
  if (source == Source::Assembly) return r;
  static const std::vector<Row> cuda = makeCudaRows();
  return cuda;
}

std::string status(const Row& r, double value) {
  if (!std::isnan(r.target) && value >= r.lo && value <= r.hi) return "pass";
  if (r.gap && value >= r.gapLo && value <= r.gapHi) return "gap";
  return "FAIL";
}

}  // namespace simtlm::cli::microbench

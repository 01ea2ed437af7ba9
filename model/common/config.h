// The machine configuration of the timing model: one struct per unit, gathered in GpuConfig.
// Every field is described by exactly one row of the parameter table (model/common/params.cpp):
// its key (`sm.num_warps`), type, default, unit, allowed range and meaning. Parsing, validation,
// `simtlm params` and the JSON of result files all walk that table, so a parameter added there
// is everywhere at once. Units receive their sub-struct at construction and never parse text.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/diagnostics.h"
#include "isa/opcode.h"

namespace simtlm::config {

// Enum parameters: the order of the enumerators is the order of the names in the table.
enum class SchedPolicy { Gto, Lrr };  // "gto" | "lrr"
enum class TlmMode { At, Lt };        // "at" | "lt"
enum class DramScheduler { Fixed, Frfcfs };  // "fixed" | "frfcfs"
enum class L2WritePolicy { WriteBack, WriteThrough };  // "write-back" | "write-through"
// How an SM's units are scheduled (docs/timing-model.md); the same cycles and statistics either way.
enum class SmScheduling { Sequential, Systemc };  // "sequential" | "systemc"
// Which SM receives a grid's next block (docs/timing-model.md).
enum class BlockPlacement { BreadthFirst, FillFirst };
enum class FaultTarget { None, Alu, Register };  // "none" | "alu" | "register" (uv.fault.target)  // "breadth-first" | "fill-first"

// The redundancy-elimination mechanism the SMs run (DESIGN.md section 4). Chosen by the
// scenario or --mechanism, not by a configuration key; mechanismName() gives its name. A test
// may register more (model/mechanisms/registry.h), with ids past these.
enum class Mechanism {
  Baseline, Darsie, DarsieIgnoreStore, DarsieNoCfSync, DarsieEarlySkip, UvToken, UvIrb, Uv, UvSrf, UvSrfIrb, DacIdeal,
  AffineA, AffineAb, AffineAbm, Bow, BowWr, BowWrHalf, Rfc
};
// The name of a built-in mechanism ("?" for an id only the registry knows).
const char* mechanismName(Mechanism m);
// Throws ConfigError for an unknown name.
Mechanism mechanismFromName(const std::string& name);

struct GpuConfig {
  struct Gpu {
    int num_sms;
    int warp_size;
    double core_clock_mhz;
    BlockPlacement block_placement;
  } gpu;
  struct Sm {
    int num_warps;      // warp contexts per SM
    int max_blocks;     // threadblock slots per SM
    int num_registers;  // 32-bit registers per SM (one thread's register = one)
    SmScheduling scheduling;
  } sm;
  struct Frontend {
    int fetch_width;  // instructions per warp per fetch
    int icache_size, icache_line, icache_assoc, icache_hit_latency, icache_mshrs;
    int ibuffer_entries;  // per warp
    int fetch_throughput;  // fetches started per SM per cycle
    int clock_divider;     // core cycles per front-end cycle: fetch and issue act in one of every N
  } frontend;
  struct Issue {
    int schedulers;  // per SM; warps are statically partitioned among them
    SchedPolicy policy;
    int max_per_warp;           // instructions one scheduler may issue from its warp per cycle
    bool dual_issue_diff_units;  // ... each to a different execution unit
  } issue;
  struct RegFile {
    int banks;            // single-ported vector register banks per SM
    int bank_ports;       // accesses per bank per cycle, reads and writebacks together
    int collectors;       // operand collector units per SM
    int collector_ports;  // operands one collector receives per cycle
    int lane_group;       // lanes per subarray: accesses are counted per active lane group
  } regfile;
  struct Exec {
    int sp_units, simd_width;  // per SM; a warp occupies a unit warp_size / simd_width cycles
    int sfu_units, sfu_width;
    int ldst_width;
    std::array<int, isa::kNumOpClasses> latency;  // by isa::OpClass, in cycles
    int latencyOf(isa::OpClass c) const { return latency[static_cast<size_t>(c)]; }
  } exec;
  struct L1 {
    bool enabled;
    int size, line, assoc, banks, mshrs, mshr_merge, hit_latency;
  } l1;
  // The constant cache (ld.const); its line is l1.line, the coalescer's segment.
  struct ConstCache {
    int size, assoc, mshrs, mshr_merge, hit_latency;
  } const_cache;
  struct Shared {
    int size, banks, bank_width, latency;
    int atomic_latency;  // an atomic's load-to-use latency (it has its own pipeline)
  } shared;
  struct L2 {
    bool enabled;
    int size, line, assoc, latency;  // size: whole GPU, split evenly over the slices
    int sub_partitions;  // slices per DRAM channel: dram.channels x sub_partitions slices
    int mshrs, mshr_merge, request_queue, dram_queue;  // per slice
    L2WritePolicy write_policy;
  } l2;
  struct Dram {
    int latency;
    double bytes_per_cycle;  // whole device, per core cycle (scheduler = fixed)
    int channels, banks_per_channel, bank_busy_cycles, interleave;
    DramScheduler scheduler;
    int queue_depth;  // per channel (frfcfs)
    double clock_mhz;  // DRAM command clock: the t_* below count its cycles (frfcfs)
    int t_rcd, t_rp, t_ras, t_cl, t_wl, t_ccd, atom_bytes;
  } dram;
  struct Tlm {
    TlmMode mode;
  } tlm;
  struct Watchdog {
    int cycles;
  } watchdog;
  // How the host simulates (docs/performance.md): not part of the simulated machine, and no
  // statistic depends on it.
  struct Sim {
    int threads;  // host threads running the SMs' cycles (sm.scheduling=sequential); 0: the host's cores
    bool adapt_threads;  // run a window of cycles on one thread when that is faster (a busy host)
  } sim;
  // Run limits (GPGPU-Sim's -gpgpu_max_cycle / -gpgpu_max_insn), over all launches of a run; 0
  // means none. The functional interpreter applies the instruction limit too.
  struct Limits {
    long long max_cycles;
    long long max_instructions;  // warp instructions issued
  } limits;
  // DARSIE's structures (docs/darsie.md); used when `mechanism` is a DARSIE variant.
  struct Darsie {
    int skip_entries;     // PC skip table entries per thread block
    int skip_ports;       // distinct PCs the skip table is probed for per cycle (PC coalescer)
    int skips_per_cycle;  // follower skips per SM per cycle
    int rename_regs;      // physical vector registers for renaming per thread block (at most)
    int branch_history;   // darsie-no-cf-sync: majority branch outcomes kept per thread block
    bool tid_yz;          // generalization: tid.y / tid.z conditionally redundant
    bool rename_bank_conflicts;  // false: rename-pool registers use no bank ports (ideal)
    // Tests only (not a parameter): followers map the wrong version, which a test must catch.
    bool corrupt_rename_for_test = false;
  } darsie;

  // UV's structures (docs/uv.md): the IRB (uv-irb, uv, uv-srf-irb) and the SRF (uv-srf, uv-srf-irb).
  struct Uv {
    int irb_entries;  // instruction reuse buffer entries per SM (UV Sec. 3.2, 4: 8)
    int srf_entries;  // scalar register file registers per SM (UV Sec. 3.1.2, 4: 128)
    bool reliability;  // uniform instructions on two lanes, scalars stored twice (UV Sec. 3.3)
    // One bit flipped, once, for a fault-injection campaign (docs/uv.md).
    FaultTarget fault_target;
    long long fault_cycle;  // at the first chance at or after this cycle
    int fault_sm;           // on this SM
    long long fault_seed;   // which lane, bit and register
  } uv;

  // Compact affine execution's structures (docs/affine.md; Kim et al. Sec. 4): affine-a,
  // affine-ab and affine-abm.
  struct Affine {
    int asrf_entries;  // ASRF entries per warp (Kim Sec. 4.1: one per architectural register, 64)
  } affine;

  // BOW's bypassing operand collectors (docs/bow.md; Esfeden et al.): bow, bow-wr, bow-wr-half;
  // and the register-file cache it compares against (rfc; Gebhart et al. 2011).
  struct Bow {
    int window;  // instruction window IW: a register accessed by one of the warp's last IW - 1 instructions is bypassed
    bool hints;  // bow-wr, bow-wr-half: the compiler's write-back hints steer results (BOW Sec. IV-B)
  } bow;
  struct Rfc {
    int entries;  // register-file cache entries per warp (Gebhart et al.: 6 per thread)
  } rfc;

  Mechanism mechanism = Mechanism::Baseline;
  // A composition ("darsie+NAME", docs/mechanisms.md): the mechanisms attached, two or more, in
  // list order, and `mechanism` is the first. Empty when one mechanism (or none) runs.
  // mechanisms::configure() sets both from a name.
  std::vector<Mechanism> composition;

  GpuConfig();  // every field at its table default
};

// A bad parameter (unknown key, wrong type, out of range) or an inconsistent combination.
// Errors located in a configuration file are thrown as simtlm::InputError (file:line:col) instead.
class ConfigError : public std::runtime_error {
 public:
  // One line of text: the raw bytes of a value or key are escaped (isa/diagnostics.h).
  explicit ConfigError(const std::string& message) : std::runtime_error(oneLineText(message)) {}
};

// Cross-field consistency (warps per scheduler, cache geometry, ...). Throws ConfigError
// naming the parameters involved; per-field ranges are already enforced when a value is set.
void checkConfig(const GpuConfig& c);

// The resolved configuration as a flat JSON object key -> value (numbers, booleans, enum names),
// for result files.
nlohmann::json toJson(const GpuConfig& c);

}  // namespace simtlm::config

// THE parameter table. Defaults are the DARSIE baseline (Table 2: GTX 1080 Ti, Pascal); values
// that table does not give come from GPGPU-Sim's SM6_TITANX (GP102) configuration and NVIDIA's
// GTX 1080 Ti specification. configs/pascal.ini restates them with their sources.
#include "model/common/param_builders.h"

namespace simtlm::config {

namespace {

using isa::OpClass;

// Latencies per isa::OpClass (GPGPU-Sim SM6_TITANX -ptx_opcode_latency_*, except the SFU's:
// calibrated to the dependent chain measured on Pascal, configs/pascal.ini). Memory classes are
// the LD/ST unit's own latency; shared memory, L1, L2 and DRAM add theirs.
int defaultLatency(OpClass c) {
  switch (c) {
    case OpClass::IntDiv: return 145;
    case OpClass::FpDiv: return 39;
    case OpClass::Sfu: return 9;
    case OpClass::LoadGlobal: case OpClass::LoadShared: case OpClass::StoreGlobal:
    case OpClass::StoreShared: case OpClass::AtomicGlobal: case OpClass::AtomicShared:
    case OpClass::Barrier: case OpClass::Fence: case OpClass::Exit: case OpClass::Nop:
      return 1;
    default: return 4;  // ALU pipeline: int, int_mul, fp, convert, move, compare, ..., branches
  }
}

bool isMemoryClass(OpClass c) {
  switch (c) {
    case OpClass::LoadGlobal: case OpClass::LoadShared: case OpClass::StoreGlobal:
    case OpClass::StoreShared: case OpClass::AtomicGlobal: case OpClass::AtomicShared: return true;
    default: return false;
  }
}

// Run limits. The largest shipped scenarios (scenarios/large/) take 1.66 M cycles and 23 M warp
// instructions; the defaults leave 6x and 4x room, and stop a runaway run on the interpreter in
// about 2-40 s and on the timing model in about 10 s (one busy SM) to 15 min (every SM busy)
// of host time (docs/configuration.md).
constexpr long long kDefaultMaxCycles = 10'000'000;
constexpr long long kDefaultMaxInstructions = 100'000'000;

std::vector<Param> buildTable() {
  constexpr long long KiB = 1024, MiB = 1024 * 1024;
  std::vector<Param> t = {
      intParam("gpu.num_sms", SIMTLM_FIELD(gpu.num_sms), 28, "SMs", 1, 256,
               "streaming multiprocessors on the GPU"),
      intParam("gpu.warp_size", SIMTLM_FIELD(gpu.warp_size), 32, "threads", 1, 32,
               "threads per warp"),
      realParam("gpu.core_clock_mhz", SIMTLM_FIELD(gpu.core_clock_mhz), 1480, "MHz", 1, 10000,
                "SM clock; every latency in cycles is in this clock"),
      enumParam("gpu.block_placement", SIMTLM_FIELD(gpu.block_placement), {"breadth-first", "fill-first"},
                "breadth-first",
                "where a grid's blocks go: each cycle at most one more block per SM, to the SMs with the "
                "fewest resident blocks first (round robin among equals), or every block an SM has room "
                "for before the next SM"),

      intParam("sm.num_warps", SIMTLM_FIELD(sm.num_warps), 64, "warps", 1, 1024,
               "warp contexts per SM (max resident warps)"),
      intParam("sm.max_blocks", SIMTLM_FIELD(sm.max_blocks), 32, "blocks", 1, 1024,
               "threadblock slots per SM (max resident blocks)"),
      intParam("sm.num_registers", SIMTLM_FIELD(sm.num_registers), 65536, "registers", 1, 1 << 22,
               "32-bit registers per SM, shared by the resident threads"),
      enumParam("sm.scheduling", SIMTLM_FIELD(sm.scheduling), {"sequential", "systemc"}, "sequential",
                "how the SM's units run each cycle: one loop per SM calling them in pipeline order, or "
                "one SC_METHOD per unit chained by delta cycles (slower; same cycles and statistics)"),

      intParam("frontend.fetch_width", SIMTLM_FIELD(frontend.fetch_width), 2, "instructions", 1, 8,
               "instructions fetched for one warp per fetch"),
      intParam("frontend.icache_size", SIMTLM_FIELD(frontend.icache_size), 4 * KiB, "bytes", 64,
               16 * MiB, "instruction cache capacity per SM"),
      intParam("frontend.icache_line", SIMTLM_FIELD(frontend.icache_line), 128, "bytes", 8, 4096,
               "instruction cache line (a power of two)"),
      intParam("frontend.icache_assoc", SIMTLM_FIELD(frontend.icache_assoc), 4, "ways", 1, 1024,
               "instruction cache associativity"),
      intParam("frontend.icache_hit_latency", SIMTLM_FIELD(frontend.icache_hit_latency), 1,
               "cycles", 0, 1000, "instruction cache hit latency"),
      intParam("frontend.icache_mshrs", SIMTLM_FIELD(frontend.icache_mshrs), 2, "misses", 1, 1024,
               "outstanding instruction cache line fills"),
      intParam("frontend.ibuffer_entries", SIMTLM_FIELD(frontend.ibuffer_entries), 2,
               "instructions", 1, 64, "decoded instructions buffered per warp"),
      intParam("frontend.fetch_throughput", SIMTLM_FIELD(frontend.fetch_throughput), 8, "fetches/cycle", 1,
               64, "I-cache fetches an SM starts per cycle, each for a different warp"),
      intParam("frontend.clock_divider", SIMTLM_FIELD(frontend.clock_divider), 1, "cycles", 1, 4,
               "core cycles per front-end cycle: fetch and issue act in the first core cycle of every N "
               "(2: a front end clocked at half the execution units' rate, Kim et al.'s slow front end)"),

      intParam("issue.schedulers", SIMTLM_FIELD(issue.schedulers), 4, "schedulers", 1, 64,
               "warp schedulers per SM, each issuing one instruction per cycle"),
      enumParam("issue.policy", SIMTLM_FIELD(issue.policy), {"gto", "lrr"}, "gto",
                "warp scheduling: greedy-then-oldest or loose round robin"),
      intParam("issue.max_per_warp", SIMTLM_FIELD(issue.max_per_warp), 2, "instructions", 1, 4,
               "instructions a scheduler issues from the warp it picked in one cycle, in program order"),
      boolParam("issue.dual_issue_diff_units", SIMTLM_FIELD(issue.dual_issue_diff_units), true,
                "the instructions a scheduler issues from one warp in one cycle go to different execution "
                "units"),

      intParam("regfile.banks", SIMTLM_FIELD(regfile.banks), 32, "banks", 1, 1024,
               "vector register file banks per SM"),
      intParam("regfile.bank_ports", SIMTLM_FIELD(regfile.bank_ports), 1, "accesses/cycle", 1, 16,
               "accesses per bank per cycle, operand reads and writebacks together"),
      intParam("regfile.collectors", SIMTLM_FIELD(regfile.collectors), 32, "collectors", 1, 1024,
               "operand collector units per SM"),
      intParam("regfile.collector_ports", SIMTLM_FIELD(regfile.collector_ports), 1,
               "operands/cycle", 1, 8, "operands one collector unit receives per cycle"),
      intParam("regfile.lane_group", SIMTLM_FIELD(regfile.lane_group), 8, "lanes", 1, 32,
               "lanes per register-file subarray: an access is counted per lane group with an "
               "active lane (energy of divergent and partial warps)"),

      intParam("exec.sp_units", SIMTLM_FIELD(exec.sp_units), 4, "units", 1, 64,
               "SP (ALU) pipelines per SM"),
      intParam("exec.simd_width", SIMTLM_FIELD(exec.simd_width), 32, "lanes", 1, 32,
               "lanes per SP unit; a warp instruction occupies it warp_size/simd_width cycles"),
      intParam("exec.sfu_units", SIMTLM_FIELD(exec.sfu_units), 4, "units", 1, 64,
               "special function units per SM"),
      intParam("exec.sfu_width", SIMTLM_FIELD(exec.sfu_width), 8, "lanes", 1, 32,
               "lanes per SFU"),
      intParam("exec.ldst_width", SIMTLM_FIELD(exec.ldst_width), 32, "lanes", 1, 32,
               "addresses the LD/ST unit generates per cycle"),
  };
  for (int i = 0; i < isa::kNumOpClasses; ++i) {
    auto c = static_cast<OpClass>(i);
    std::string name(isa::className(c));
    t.push_back(intParam(
        "exec.latency." + name, [i](auto& cfg) -> auto& { return cfg.exec.latency[i]; },
        defaultLatency(c), "cycles", 0, 100000,
        isMemoryClass(c) ? "LD/ST unit latency of " + name + " (the memory system adds its own)"
                         : "latency of " + name + " instructions, dispatch to result"));
  }
  std::vector<Param> memory = {
      boolParam("l1.enabled", SIMTLM_FIELD(l1.enabled), false,
                "cache global loads in the L1 data cache (false: bypass to L2, as GPGPU-Sim's "
                "Pascal configuration: -gpgpu_gmem_skip_L1D 1)"),
      intParam("l1.size", SIMTLM_FIELD(l1.size), 48 * KiB, "bytes", 128, 16 * MiB,
               "L1 data cache capacity per SM"),
      intParam("l1.line", SIMTLM_FIELD(l1.line), 128, "bytes", 8, 4096,
               "L1 line (a power of two)"),
      intParam("l1.assoc", SIMTLM_FIELD(l1.assoc), 96, "ways", 1, 1024, "L1 associativity"),
      intParam("l1.banks", SIMTLM_FIELD(l1.banks), 2, "banks", 1, 64, "L1 data banks"),
      intParam("l1.mshrs", SIMTLM_FIELD(l1.mshrs), 256, "entries", 1, 4096,
               "L1 miss status holding registers (distinct lines in flight)"),
      intParam("l1.mshr_merge", SIMTLM_FIELD(l1.mshr_merge), 8, "requests", 1, 1024,
               "requests merged into one MSHR entry"),
      intParam("l1.hit_latency", SIMTLM_FIELD(l1.hit_latency), 82, "cycles", 0, 10000,
               "L1 hit latency, load-to-use (a dependent load's issue to issue; also the L1 pipeline every global access passes)"),
      intParam("const_cache.size", SIMTLM_FIELD(const_cache.size), 16 * KiB, "bytes", 128,
               16 * MiB, "constant cache capacity per SM (ld.const; its line is l1.line)"),
      intParam("const_cache.assoc", SIMTLM_FIELD(const_cache.assoc), 2, "ways", 1, 1024,
               "constant cache associativity"),
      intParam("const_cache.mshrs", SIMTLM_FIELD(const_cache.mshrs), 2, "entries", 1, 4096,
               "constant cache miss status holding registers (distinct lines in flight)"),
      intParam("const_cache.mshr_merge", SIMTLM_FIELD(const_cache.mshr_merge), 64, "requests", 1,
               1024, "requests merged into one constant cache MSHR entry"),
      intParam("const_cache.hit_latency", SIMTLM_FIELD(const_cache.hit_latency), 25, "cycles", 0,
               10000, "constant cache hit latency, load-to-use"),

      intParam("shared.size", SIMTLM_FIELD(shared.size), 96 * KiB, "bytes", 0, 16 * MiB,
               "shared memory per SM"),
      intParam("shared.banks", SIMTLM_FIELD(shared.banks), 32, "banks", 1, 128,
               "shared memory banks"),
      intParam("shared.bank_width", SIMTLM_FIELD(shared.bank_width), 4, "bytes", 1, 64,
               "bytes per bank per cycle (consecutive words go to consecutive banks)"),
      intParam("shared.latency", SIMTLM_FIELD(shared.latency), 24, "cycles", 0, 10000,
               "shared memory load-to-use latency without conflicts (a dependent load's issue to issue)"),
      intParam("shared.atomic_latency", SIMTLM_FIELD(shared.atomic_latency), 16, "cycles", 0, 10000,
               "shared memory atomic load-to-use latency, one lane (each further lane on the bank: 2 cycles)"),

      boolParam("l2.enabled", SIMTLM_FIELD(l2.enabled), true,
                "place the shared L2 between the SMs and DRAM"),
      intParam("l2.size", SIMTLM_FIELD(l2.size), 2816 * KiB, "bytes", 1 * KiB, 1024 * MiB,
               "L2 capacity (whole GPU)"),
      intParam("l2.line", SIMTLM_FIELD(l2.line), 128, "bytes", 8, 4096, "L2 line (a power of two)"),
      intParam("l2.assoc", SIMTLM_FIELD(l2.assoc), 16, "ways", 1, 1024, "L2 associativity"),
      intParam("l2.latency", SIMTLM_FIELD(l2.latency), 120, "cycles", 0, 100000,
               "L2 hit latency"),
      intParam("l2.sub_partitions", SIMTLM_FIELD(l2.sub_partitions), 2, "slices", 1, 64,
               "L2 slices per DRAM channel (the L2 has dram.channels x this many slices)"),
      intParam("l2.mshrs", SIMTLM_FIELD(l2.mshrs), 256, "entries", 1, 65536,
               "MSHRs per L2 slice (lines in flight)"),
      intParam("l2.mshr_merge", SIMTLM_FIELD(l2.mshr_merge), 64, "requests", 1, 65536,
               "requests one L2 MSHR holds"),
      enumParam("l2.write_policy", SIMTLM_FIELD(l2.write_policy), {"write-back", "write-through"},
                "write-back",
                "write-back: allocate on write and miss, dirty lines written to DRAM when evicted; "
                "write-through: no allocation on write, every write goes to DRAM"),
      intParam("l2.request_queue", SIMTLM_FIELD(l2.request_queue), 32, "requests", 1, 4096,
               "requests waiting at each L2 slice for its one lookup per cycle"),
      intParam("l2.dram_queue", SIMTLM_FIELD(l2.dram_queue), 32, "requests", 0, 4096,
               "requests each L2 slice holds for DRAM before it stops looking up (0: no bound)"),

      intParam("dram.latency", SIMTLM_FIELD(dram.latency), 100, "cycles", 0, 100000,
               "DRAM access latency without queueing"),
      realParam("dram.bytes_per_cycle", SIMTLM_FIELD(dram.bytes_per_cycle), 327, "bytes/cycle",
                0.001, 1e6, "DRAM bandwidth of the whole device per core cycle"),
      intParam("dram.channels", SIMTLM_FIELD(dram.channels), 11, "channels", 1, 256,
               "independent DRAM channels"),
      intParam("dram.banks_per_channel", SIMTLM_FIELD(dram.banks_per_channel), 16, "banks", 1, 256,
               "banks per channel"),
      intParam("dram.bank_busy_cycles", SIMTLM_FIELD(dram.bank_busy_cycles), 31, "cycles", 0, 100000,
               "cycles a bank stays busy per access (row cycle)"),
      intParam("dram.interleave", SIMTLM_FIELD(dram.interleave), 256, "bytes", 8, 1 * MiB,
               "address interleaving granule across channels (and, scheduler=fixed, banks; a power of two)"),
      enumParam("dram.scheduler", SIMTLM_FIELD(dram.scheduler), {"fixed", "frfcfs"}, "frfcfs",
                "DRAM timing: frfcfs = channels of banks with open rows, row hits first then oldest; "
                "fixed = every access holds its bank bank_busy_cycles"),
      intParam("dram.queue_depth", SIMTLM_FIELD(dram.queue_depth), 64, "requests", 1, 4096,
               "FR-FCFS scheduler queue per channel (frfcfs)"),
      realParam("dram.clock_mhz", SIMTLM_FIELD(dram.clock_mhz), 2500, "MHz", 1, 100000,
                "DRAM command clock; dram.t_* count its cycles (frfcfs)"),
      intParam("dram.t_rcd", SIMTLM_FIELD(dram.t_rcd), 16, "DRAM cycles", 0, 10000,
               "activate to column command (frfcfs)"),
      intParam("dram.t_rp", SIMTLM_FIELD(dram.t_rp), 16, "DRAM cycles", 0, 10000,
               "precharge to activate (frfcfs)"),
      intParam("dram.t_ras", SIMTLM_FIELD(dram.t_ras), 37, "DRAM cycles", 0, 10000,
               "activate to precharge, at least (frfcfs)"),
      intParam("dram.t_cl", SIMTLM_FIELD(dram.t_cl), 16, "DRAM cycles", 0, 10000,
               "read column command to data (CAS latency, frfcfs)"),
      intParam("dram.t_wl", SIMTLM_FIELD(dram.t_wl), 6, "DRAM cycles", 0, 10000,
               "write column command to data (frfcfs)"),
      intParam("dram.t_ccd", SIMTLM_FIELD(dram.t_ccd), 2, "DRAM cycles", 1, 10000,
               "column to column command: one burst of atom_bytes on the channel's bus (frfcfs)"),
      intParam("dram.atom_bytes", SIMTLM_FIELD(dram.atom_bytes), 32, "bytes", 1, 4096,
               "bytes one burst moves (bus width x burst length, frfcfs)"),

      enumParam("tlm.mode", SIMTLM_FIELD(tlm.mode), {"at", "lt"}, "at",
                "memory sockets: approximately-timed (nb_transport) or loosely-timed (b_transport)"),
      intParam("darsie.skip_entries", SIMTLM_FIELD(darsie.skip_entries), 8, "entries", 1, 64,
               "DARSIE PC skip table entries per thread block (Sec. 6.3)"),
      intParam("darsie.skip_ports", SIMTLM_FIELD(darsie.skip_ports), 2, "PCs/cycle", 1, 64,
               "DARSIE skip table read ports: distinct PCs probed per cycle (Sec. 4.3.4)"),
      intParam("darsie.skips_per_cycle", SIMTLM_FIELD(darsie.skips_per_cycle), 4, "skips/cycle", 1, 64,
               "DARSIE follower warps that skip an instruction per SM per cycle"),
      intParam("darsie.rename_regs", SIMTLM_FIELD(darsie.rename_regs), 32, "registers", 0, 255,
               "DARSIE renaming registers per thread block, at most (fewer if occupancy would drop)"),
      intParam("darsie.branch_history", SIMTLM_FIELD(darsie.branch_history), 64, "branches", 1, 65536,
               "darsie-no-cf-sync: guarded-branch outcomes of the majority path remembered per thread "
               "block; a warp further behind leaves the majority path (counted)"),
      boolParam("darsie.tid_yz", SIMTLM_FIELD(darsie.tid_yz), true,
                "DARSIE: tid.y / tid.z conditionally redundant when x*y (x*y*z) divides the warp size"),
      boolParam("darsie.rename_bank_conflicts", SIMTLM_FIELD(darsie.rename_bank_conflicts), true,
                "rename-pool registers compete for the bank ports like any register; false removes "
                "DARSIE-induced bank conflicts (the paper's 1% experiment, Sec. 6.1)"),
      intParam("uv.irb_entries", SIMTLM_FIELD(uv.irb_entries), 8, "entries", 1, 256,
               "UV instruction reuse buffer entries per SM, LRU (uv-irb, uv, uv-srf-irb; UV Sec. 3.2)"),
      intParam("uv.srf_entries", SIMTLM_FIELD(uv.srf_entries), 128, "registers", 1, 4096,
               "UV scalar register file registers per SM; full: uniform instructions run as vectors "
               "(uv-srf, uv-srf-irb; UV Sec. 3.1.2, 5.3)"),
      intParam("affine.asrf_entries", SIMTLM_FIELD(affine.asrf_entries), 64, "entries", 1, 64,
               "affine-a, affine-ab, affine-abm: ASRF entries (tag, base, stride) per warp; full: an affine result is written to "
               "the vector register file instead (Kim Sec. 4.1: one per architectural register)"),
      intParam("bow.window", SIMTLM_FIELD(bow.window), 3, "instructions", 2, 7,
               "bow, bow-wr, bow-wr-half: instruction window IW; a register read or written by one of the warp's "
               "last IW - 1 instructions is read from its bypassing operand collector (BOW Sec. III, IV-A)"),
      boolParam("bow.hints", SIMTLM_FIELD(bow.hints), true,
                "bow-wr, bow-wr-half: the compiler's write-back hints for the window send each result to the "
                "register file only, the collector only or both; false: every result to the collector, written "
                "back when it leaves the window (BOW Sec. IV-B)"),
      intParam("rfc.entries", SIMTLM_FIELD(rfc.entries), 6, "registers", 1, 64,
               "rfc: register-file cache entries per warp, FIFO, allocated on write (Gebhart et al. 2011: 6 per thread)"),
      boolParam("uv.reliability", SIMTLM_FIELD(uv.reliability), false,
                "UV: uniform instructions computed on two lanes and compared, scalars stored twice, "
                "ALU and register-file coverage reported (UV Sec. 3.3, 5.4)"),
      enumParam("uv.fault.target", SIMTLM_FIELD(uv.fault_target), {"none", "alu", "register"}, "none",
                "UV fault injection: flip one bit of an ALU result or of a live register, once (uv mechanisms)"),
      intParam("uv.fault.cycle", SIMTLM_FIELD(uv.fault_cycle), 0, "cycle", 0, 1'000'000'000'000LL,
               "UV fault injection: at the first instruction executed at or after this cycle"),
      intParam("uv.fault.sm", SIMTLM_FIELD(uv.fault_sm), 0, "SM", 0, 255,
               "UV fault injection: on this SM (below gpu.num_sms)"),
      intParam("uv.fault.seed", SIMTLM_FIELD(uv.fault_seed), 1, "seed", 0, 1'000'000'000'000LL,
               "UV fault injection: chooses the lane, the bit and the register"),
      intParam("sim.threads", SIMTLM_FIELD(sim.threads), 1, "threads", 0, 256,
               "host threads that simulate the SMs of a cycle in parallel (sm.scheduling=sequential; "
               "systemc runs on one); 0: one per core the process may use. Results are identical for "
               "every count"),
      boolParam("sim.adapt_threads", SIMTLM_FIELD(sim.adapt_threads), true,
                "time windows of cycles on the threads and on one, and run on one while that is faster "
                "(a host busy with other work); false: always on the threads. Results are the same"),
      intParam("watchdog.cycles", SIMTLM_FIELD(watchdog.cycles), 1000000, "cycles", 1, 2000000000,
               "stop a run after this many cycles in which no warp went on and memory answered nothing"),
      intParam("limits.max_cycles", SIMTLM_FIELD(limits.max_cycles), kDefaultMaxCycles, "cycles", 0,
               1'000'000'000'000'000LL, "stop the run after this many core cycles, all launches together (0: no limit)"),
      intParam("limits.max_instructions", SIMTLM_FIELD(limits.max_instructions), kDefaultMaxInstructions,
               "instructions", 0, 1'000'000'000'000'000LL,
               "stop the run after this many warp instructions, all launches together, on the timing model "
               "and the functional interpreter (0: no limit)"),
  };
  for (auto& p : memory) t.push_back(std::move(p));
  return t;
}

}  // namespace

const std::vector<Param>& params() {
  static const std::vector<Param> table = buildTable();
  return table;
}

}  // namespace simtlm::config

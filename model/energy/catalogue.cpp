#include "model/energy/catalogue.h"

namespace simtlm::energy {
namespace {

using W = Weight;

std::vector<ComponentSpec> build() {
  const std::vector<Input> memLanes = {
      {"exec.load_global.lanes"}, {"exec.load_shared.lanes"}, {"exec.load_param.lanes"},
      {"exec.store_global.lanes"}, {"exec.store_shared.lanes"}, {"exec.atomic_global.lanes"},
      {"exec.atomic_shared.lanes"}};
  return {
      {"fetch", "instruction fetch (PC select, I-buffer write)", Scope::PerSm, "", true,
       {{"instruction", "warp instruction fetched", {{"frontend.fetched"}}}}},
      {"icache", "instruction cache", Scope::PerSm, "", true,
       {{"access", "I-cache access", {{"icache.accesses"}}},
        {"fill", "line fill", {{"icache.fills"}}}}},
      {"decode", "decode", Scope::PerSm, "", true,
       {{"instruction", "warp instruction decoded (= fetched)", {{"frontend.fetched"}}}}},
      {"scheduler", "I-buffer read, scoreboard and warp scheduler", Scope::PerSm, "", true,
       {{"issue", "warp instruction issued", {{"issue.warp_instructions"}}}}},
      {"regfile", "register file banks", Scope::PerSm, "", true,
       {{"read", "32-lane register read (charged per active lane group)",
         {{"regfile.read_lane_groups", W::LaneGroup}}},
        {"write", "32-lane register write (charged per active lane group)",
         {{"regfile.write_lane_groups", W::LaneGroup}, {"regfile.writeback_lane_groups", W::LaneGroup}}}}},
      {"collector", "operand collectors and crossbar", Scope::PerSm, "", true,
       {{"allocate", "instruction accepted by a collector unit", {{"regfile.collector.accepted"}}},
        {"operand", "32-lane operand into a collector (charged per active lane group)",
         {{"regfile.read_lane_groups", W::LaneGroup}}}}},
      {"int", "integer lanes", Scope::PerSm, "", true,
       {{"op", "active lane, integer add/logic/shift", {{"exec.int.lanes"}}},
        {"mul", "active lane, integer multiply (mul, mad)", {{"exec.int_mul.lanes"}}},
        {"div", "active lane, integer divide/remainder", {{"exec.int_div.lanes"}}},
        {"compare", "active lane, compare into a predicate", {{"exec.compare.lanes"}}},
        {"move", "active lane, mov/selp/s2r", {{"exec.move.lanes"}}},
        {"predicate", "active lane, predicate logic", {{"exec.predicate.lanes"}}}}},
      {"fp", "FP32 lanes", Scope::PerSm, "", true,
       {{"op", "active lane, FP32 add/mul/fma/min/max", {{"exec.fp.lanes"}}},
        {"div", "active lane, FP32 divide", {{"exec.fp_div.lanes"}}},
        {"convert", "active lane, int<->float conversion", {{"exec.convert.lanes"}}}}},
      {"sfu", "special-function unit", Scope::PerSm, "", true,
       {{"op", "active lane, transcendental (rcp, sqrt, ex2, lg2, sin, cos)", {{"exec.sfu.lanes"}}}}},
      {"ldst", "load/store unit (address generation, coalescer)", Scope::PerSm, "", true,
       {{"lane", "active lane of a memory instruction", memLanes},
        {"transaction", "coalesced global transaction", {{"coalescer.transactions"}}}}},
      {"shared", "shared memory", Scope::PerSm, "", true,
       {{"access", "warp access (bank arbitration, crossbar)", {{"shared.accesses"}}},
        {"word", "32-bit word read or written in a bank", {{"shared.lane_accesses"}}}}},
      // (Present with l1.enabled=false too: it caches ld.global.nc, and the hardware has it.)
      {"l1", "L1 data cache", Scope::PerSm, "", true,
       {{"access", "access (128-byte line)", {{"l1.accesses"}}},
        {"transaction", "line fill or write-through to L2", {{"l1.transactions"}}}}},
      {"const_cache", "constant cache (ld.const)", Scope::PerSm, "", true,
       {{"access", "access (a line read for broadcast)", {{"const_cache.accesses"}}},
        {"transaction", "line fill from L2", {{"const_cache.transactions"}}}}},
      {"sm_base", "SM clock tree, pipeline latches, unitemized logic", Scope::PerSm, "", true,
       {{"active_cycle", "clocked cycle with a resident block", {{"active_cycles"}}},
        {"idle_cycle", "clocked cycle without a resident block",
         {{"cycles"}, {"active_cycles", W::Minus}}}}},
      {"l2", "L2 cache", Scope::Gpu, "", true,
       {{"read", "read (128-byte line)", {{"l2.reads"}}},
        {"write", "write", {{"l2.writes"}}},
        {"fill", "line filled from DRAM", {{"l2.bytes_from_memory", W::PerL2Line}}},
        {"atomic", "atomic performed at the L2 (its access is a read)", {{"l2.atomics"}}}},
       "l2"},
      {"noc", "interconnect", Scope::Gpu, "", true,
       {{"request", "request routed", {{"noc.requests"}}},
        {"byte", "byte moved between the GPU and memory", {{"tlm.bytes_read"}, {"tlm.bytes_written"}}}}},
      {"dram", "DRAM (off chip)", Scope::Gpu, "", false,
       {{"read", "read access", {{"dram.reads"}}},
        {"write", "write access", {{"dram.writes"}}},
        {"byte", "byte transferred", {{"dram.bytes"}}},
        {"atomic", "atomic performed at DRAM", {{"dram.atomics"}}}}},
      {"tlm", "GPU memory port (TLM socket)", Scope::Gpu, "", true,
       {{"transaction", "TLM transaction", {{"tlm.transactions"}}}}},
      {"darsie.skip_table", "DARSIE PC skip table", Scope::PerSm, "darsie darsie-*", true,
       {{"lookup", "read-port access (one per distinct PC probed in a cycle)",
         {{"darsie.skip_table.lookups"}}},
        {"write", "entry created or cleared",
         {{"darsie.leader_elections"}, {"darsie.skip_table.invalidated_by_store"},
          {"darsie.skip_table.invalidated_by_atomic"}}}}},
      {"darsie.majority_mask", "DARSIE majority-path masks", Scope::PerSm, "darsie darsie-*", true,
       {{"access", "mask update (branch barrier, warp leaving, rejoin)",
         {{"darsie.branch_barriers"}, {"darsie.majority_leaves"}, {"darsie.rejoins"}}}}},
      {"darsie.rename", "DARSIE register rename/version tables", Scope::PerSm, "darsie darsie-*", true,
       {{"lookup", "rename-table read (register operand of an issued instruction)",
         {{"darsie.rename.lookups"}}},
        {"write", "mapping written (skip, leader version, adopted version)",
         {{"darsie.skipped"}, {"darsie.leader_elections"}, {"darsie.adopted_versions"}}},
        {"copy", "renamed register copied to warp-private space (32-lane read + write)",
         {{"darsie.copied_registers"}}}}},
      {"darsie.freelist", "DARSIE rename-register freelist", Scope::PerSm, "darsie darsie-*", true,
       {{"allocate", "register taken by a leader (a new version)", {{"darsie.freelist.allocations"}}},
        {"release", "register returned (no warp needs the version)", {{"darsie.freelist.releases"}}}}},
      // UV's structures (docs/uv.md): the token bits of the token design (uv-irb detects uniform
      // instructions with them too), the SRF design's scalar register file with its renaming
      // table and freelist, and the instruction reuse buffer.
      {"uv.token", "UV token bits (one per vector register)", Scope::PerSm, "uv-token uv-irb uv", true,
       {{"access", "token bits of an issued instruction's registers read and its destination's written",
         {{"issue.warp_instructions"}}}}},
      {"uv.srf", "UV scalar register file, renaming table and freelist", Scope::PerSm, "uv-srf uv-srf-irb", true,
       {{"read", "32-bit scalar register read", {{"uv.srf.reads"}}},
        {"write", "32-bit scalar register written", {{"uv.srf.writes"}}},
        {"rename_lookup", "renaming table read for an issued instruction's registers", {{"issue.warp_instructions"}}},
        {"rename_update", "mapping written or cleared (a register taken or returned)",
         {{"uv.srf.writes"}, {"uv.srf.releases"}}}}},
      {"uv.irb", "UV instruction reuse buffer", Scope::PerSm, "uv-irb uv uv-srf-irb", true,
       {{"lookup", "lookup of a uniform instruction (tags, opcode and source values compared)",
         {{"uv.irb.hits"}, {"uv.irb.mismatches"}, {"uv.irb.misses"}}},
        {"write", "entry filled with an executed instruction's sources and result",
         {{"uv.irb.mismatches"}, {"uv.irb.misses"}}}}},
      // Compact affine execution's structures (docs/affine.md): the per-warp affine register file
      // and the affine functional unit with its expander (Kim et al. Sec. 4.1-4.3).
      {"affine.asrf", "affine SIMT register file (tag, base and stride per register, per warp)", Scope::PerSm,
       "affine-*", true,
       {{"read", "ASRF entry read (an affine-unit operand, an expansion)", {{"affine.asrf.reads"}}},
        {"write", "ASRF entry written (a compact result, a seed)", {{"affine.asrf.writes"}}}}},
      {"affine.unit", "affine functional unit and expander", Scope::PerSm, "affine-*", true,
       {{"op", "base/stride computation", {{"affine.unit_ops"}}},
        {"expand", "a base/stride pair expanded to a warp's lanes",
         {{"affine.expansions"}, {"affine.expanded_operands"}}}}},
      // BOW's bypassing operand collectors (docs/bow.md): a 128-byte register row read or written
      // per access (BOW Table IV prices one BOC access); full size (bow, bow-wr: 4 x IW registers
      // per warp) and half size (bow-wr-half) differ in leakage only. The register-file cache
      // (rfc) is priced the same way, scaled to its size.
      {"bow.boc", "BOW bypassing operand collectors (one per warp, 4 x IW registers)", Scope::PerSm, "bow bow-wr", true,
       {{"read", "register row read from a BOC (a bypassed operand)", {{"bow.boc_reads"}}},
        {"write", "register row written into a BOC (a fill or a result)", {{"bow.boc_writes"}}}}},
      {"bow.boc_half", "BOW-WR's half-size bypassing operand collectors (2 x IW registers)", Scope::PerSm,
       "bow-wr-half", true,
       {{"read", "register row read from a BOC (a bypassed operand)", {{"bow.boc_reads"}}},
        {"write", "register row written into a BOC (a fill or a result)", {{"bow.boc_writes"}}}}},
      {"rfc", "register-file cache (rfc.entries registers per warp)", Scope::PerSm, "rfc", true,
       {{"read", "register row read from the cache (a hit)", {{"rfc.cache_reads"}}},
        {"write", "register row written into the cache (a result)", {{"rfc.cache_writes"}}}}},
  };
}

}  // namespace

const std::vector<ComponentSpec>& catalogue() {
  static const std::vector<ComponentSpec> c = build();
  return c;
}

int componentIndex(const std::string& name) {
  const auto& c = catalogue();
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

}  // namespace

bool mechanismUses(const std::string& mechanism, const std::string& owner) {
  if (owner.empty()) return true;
  // A composition ("darsie+NAME") uses the components of each of its mechanisms.
  for (const std::string& one : split(mechanism, '+'))
    for (const std::string& name : split(owner, ' ')) {
      const bool prefix = !name.empty() && name.back() == '*';
      if (prefix ? one.rfind(name.substr(0, name.size() - 1), 0) == 0 : one == name) return true;
    }
  return false;
}

}  // namespace simtlm::energy

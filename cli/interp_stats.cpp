#include "cli/interp_stats.h"

#include "isa/opcode.h"

namespace simtlm::cli {

void registerInterpreterStats(stats::Registry& r, isa::ExecCounts& c, isa::LimitStudyResult* limit,
                              isa::BowStudyResult* bow) {
  stats::Group in(r, "interp");
  in.add("warp_instructions", c.warpInstructions, "warp instructions", "warp instructions executed");
  in.add("thread_instructions", c.threadInstructions, "thread instructions",
         "thread instructions executed (active lanes of the warp instructions)");
  in.add("blocks", c.blocks, "blocks", "thread blocks run");
  in.add("warps", c.warps, "warps", "warps run");
  in.add("threads", c.threads, "threads", "threads run");
  in.add("divergent_branches", c.divergentBranches, "warp instructions",
         "branches whose active lanes went both ways");
  in.add("barriers", c.barriers, "events", "completed bar.sync episodes (one per block and barrier)");
  for (int i = 0; i < isa::kNumOpClasses; ++i) {
    const std::string n(isa::className(static_cast<isa::OpClass>(i)));
    in.add("warp." + n, c.warpByClass[i], "warp instructions", "warp instructions of opcode class " + n + " executed");
    in.add("thread." + n, c.threadByClass[i], "thread instructions",
           "thread instructions of opcode class " + n + " executed");
  }
  if (limit) {  // docs/limit-study.md
    stats::Group l(r, "limit");
    l.add("eligible", limit->eligible, "warp instructions",
          "value-producing warp instructions with the whole warp active, atomics excluded: those that can be redundant");
    l.add("grid_redundant", limit->gridRedundant, "warp instructions",
          "executions every warp of the grid made with identical operands and result");
    l.add("tb_redundant", limit->tbRedundant, "warp instructions",
          "executions every warp of the thread block made with identical operands and result");
    l.add("warp_redundant", limit->warpRedundant, "warp instructions",
          "executions whose every source operand is one scalar across the warp");
    l.add("uv_intra_warp_ops", limit->uvIntraWarpOps, "thread instructions",
          "redundant thread operations counted UV's way (warp size - 1 per warp-redundant non-memory, non-branch instruction)");
    l.add("uv_inter_warp_ops", limit->uvInterWarpOps, "thread instructions",
          "redundant thread operations across warps counted UV's way (warp size per warp-redundant non-memory "
          "instruction whose PC, sources and result another warp of the block executed before)");
    l.add("tb_eliminable", limit->tbEliminable, "warp instructions",
          "TB-redundant executions beyond the first per thread block");
    l.add("grid_eliminable", limit->gridEliminable, "warp instructions",
          "grid-redundant executions beyond the first");
    const char* structure[3] = {"uniform", "affine", "unstructured"};
    const char* what[3] = {"one scalar across the lanes", "base + lane x stride", "neither uniform nor affine"};
    for (int s = 0; s < 3; ++s)
      l.add(std::string("tb_redundant.") + structure[s], limit->tbByStructure[s], "warp instructions",
            std::string("TB-redundant executions whose result is ") + structure[s] + " (" + what[s] + ")");
  }
  if (bow) {  // docs/bow.md
    stats::Group b(r, "bow");
    b.add("reads", bow->reads, "operands", "general-register source operands read (distinct per instruction)");
    b.add("writes", bow->writes, "warp instructions", "executed instructions with a general-register result");
    b.add("partial_writes", bow->partialWrites, "warp instructions",
          "results written for only some of the warp's live lanes");
    b.add("iw3.boc_only.unread", bow->bocUnread, "warp instructions", "BOC-only results at IW 3 never read");
    b.add("iw3.boc_only.at_exit", bow->bocAtExit, "warp instructions",
          "BOC-only results at IW 3 read and not overwritten before the warp ended");
    for (int iw = isa::BowStudyResult::kMinWindow; iw <= isa::BowStudyResult::kMaxWindow; ++iw) {
      auto& w = bow->windows.at(static_cast<size_t>(iw - isa::BowStudyResult::kMinWindow));
      stats::Group g = b.sub("iw" + std::to_string(iw));
      g.add("read_bypassed", w.readBypassed, "operands", "source operands found in the instruction window");
      const char* whereTo[3] = {"to the register file only", "to the bypass buffer only (a bypassed write)",
                                "to both the bypass buffer and the register file"};
      for (int d = 0; d < 3; ++d)
        g.add(isa::bowDestName(static_cast<isa::BowDest>(d)), w.dest[static_cast<size_t>(d)], "warp instructions",
              std::string("results written ") + whereTo[d] + " with this instruction window");
    }
    for (int h = 0; h < 3; ++h) {
      const std::string hn = isa::bowDestName(static_cast<isa::BowDest>(h));
      stats::Group g = b.sub("hint." + hn);
      b.add("hint." + hn, bow->hints[static_cast<size_t>(h)], "warp instructions",
            "executed writes whose IW-3 compiler hint is " + hn);
      for (int d = 0; d < 3; ++d) {
        const std::string dn = isa::bowDestName(static_cast<isa::BowDest>(d));
        g.add("dynamic." + dn, bow->hintVsDynamic[static_cast<size_t>(h)][static_cast<size_t>(d)], "warp instructions",
              "executed writes with this hint whose IW-3 dynamic class is " + dn);
      }
    }
  }
}

std::string interpreterStatUnit(const std::string& name) {
  static const nlohmann::json units = [] {
    isa::ExecCounts c;
    isa::LimitStudyResult limit;
    isa::BowStudyResult bow;
    stats::Registry r;
    registerInterpreterStats(r, c, &limit, &bow);
    return unitsOf(r);
  }();
  auto it = units.find(name);
  return it == units.end() ? std::string() : it->get<std::string>();
}

nlohmann::json unitsOf(const stats::Registry& r) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& e : r.entries()) j[e.name] = e.unit;
  return j;
}

nlohmann::json unitsOf(const nlohmann::json& stats, const nlohmann::json& model) {
  nlohmann::json j = nlohmann::json::object();
  for (auto it = stats.begin(); it != stats.end(); ++it) {
    if (auto m = model.find(it.key()); m != model.end()) {
      j[it.key()] = *m;
    } else if (std::string unit = interpreterStatUnit(it.key()); !unit.empty()) {
      j[it.key()] = unit;
    }
  }
  return j;
}

}  // namespace simtlm::cli

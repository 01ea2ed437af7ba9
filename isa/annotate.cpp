#include "isa/annotate.h"

#include <cstdio>
#include <sstream>

#include "isa/affine_analysis.h"
#include "isa/bow_hints.h"
#include "isa/darsie_analysis.h"
#include "isa/disassembler.h"
#include "isa/liveness.h"

namespace simtlm::isa {

std::string redundancyLabel(bool vector, uint8_t deps) {
  if (vector) return "V";
  if (!deps) return "DR";
  std::string s = "CR(";
  const char* names[] = {"x", "y", "z"};
  bool first = true;
  for (int i = 0; i < 3; ++i)
    if (deps >> i & 1) { s += (first ? "" : ",") + std::string(names[i]); first = false; }
  return s + ")";
}

std::string annotateListing(const Kernel& k, const AnnotateOptions& opt) {
  Cfg cfg(k);
  DarsieOptions dopt;
  dopt.conditionalTidYZ = opt.conditionalTidYZ;
  DarsieMarking dm = markRedundancy(k, cfg, dopt);
  AffineMarking am = classifyAffine(k, cfg, opt.block, opt.warpSize);
  Liveness live(k, cfg);
  auto bow = computeBowHints(k, cfg, live, opt.bowWindow);

  std::ostringstream s;
  s << "// kernel " << k.name << ": " << k.size() << " instructions, " << k.numRegs << " registers";
  if (opt.block)
    s << ", launched with block " << opt.block->str() << " and warp size " << opt.warpSize;
  s << "\n// DARSIE: DR definitely redundant, CR(dims) conditionally redundant on tid dims, V vector\n";
  if (opt.block) s << "// launch: the class after launch-time promotion for this block shape\n";
  s << "// shape: warp-level value of the result, U uniform, A affine, G generic (- no result)\n";
  s << "// bow:   BOW-WR write-back hint for a window of " << opt.bowWindow << " (rf, boc, both)\n";
  s << "//\n// DARSIE  " << (opt.block ? "launch  " : "") << "shape  bow   PC\n";
  static const char* kBow[] = {"-", "rf", "boc", "both"};
  for (size_t i = 0; i < k.size(); ++i) {
    uint32_t pc = Kernel::pcOf(i);
    auto lab = k.labels.find(pc);
    if (lab != k.labels.end()) s << lab->second << ":\n";
    const auto& c = dm.instr[i];
    char line[96];
    std::snprintf(line, sizeof line, "%-8s ", redundancyLabel(c.vector, c.deps).c_str());
    s << line;
    if (opt.block) {
      bool red = !c.vector && depsRepeatPerWarp(c.deps, *opt.block, opt.warpSize);
      std::snprintf(line, sizeof line, "%-7s ", red ? "DR" : "V");
      s << line;
    }
    bool hasResult = writesGpr(info(k.instrs[i].op).format) || writesPred(info(k.instrs[i].op).format);
    std::snprintf(line, sizeof line, "%-6s %-5s 0x%04x  ", hasResult ? shapeName(am.instr[i]) : "-",
                  kBow[static_cast<int>(bow[i])], pc);
    s << line << disassemble(k.instrs[i], &k) << "\n";
  }
  return s.str();
}

}  // namespace simtlm::isa

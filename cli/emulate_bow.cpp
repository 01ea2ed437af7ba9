// The BOW bypass-opportunity study of `simtlm emulate --bow-study`: its table (the statistics:
// cli/interp_stats.cpp).
#include <cstdio>

#include "cli/emulate.h"

namespace simtlm::cli {
namespace {

double frac(uint64_t n, uint64_t d) { return d ? 100.0 * static_cast<double>(n) / static_cast<double>(d) : 0.0; }

}  // namespace

void printBowStudy(std::ostream& out, const isa::BowStudyResult& b) {
  using isa::BowDest;
  char line[160];
  std::snprintf(line, sizeof line,
                "  BOW bypass opportunities (BOW Fig. 3 and 7; %llu register reads, %llu writes, %llu partial):\n",
                static_cast<unsigned long long>(b.reads), static_cast<unsigned long long>(b.writes),
                static_cast<unsigned long long>(b.partialWrites));
  out << line << "    IW   reads bypassed   writes bypassed   RF only   BOC only   both\n";
  for (int iw = isa::BowStudyResult::kMinWindow; iw <= isa::BowStudyResult::kMaxWindow; ++iw) {
    const auto& w = b.at(iw);
    std::snprintf(line, sizeof line, "    %2d   %13.1f%%   %14.1f%%   %6.1f%%   %7.1f%%   %4.1f%%\n", iw,
                  frac(w.readBypassed, b.reads), frac(w.writeBypassed(), b.writes),
                  frac(w.dest[static_cast<int>(BowDest::RegisterFile)], b.writes),
                  frac(w.dest[static_cast<int>(BowDest::Boc)], b.writes),
                  frac(w.dest[static_cast<int>(BowDest::Both)], b.writes));
    out << line;
  }
  std::snprintf(line, sizeof line,
                "    compiler hints at IW 3 (isa/bow_hints): RF only %.1f%%, BOC only %.1f%%, both %.1f%%; "
                "agree with the dynamic class on %.1f%%\n",
                frac(b.hints[0], b.writes), frac(b.hints[1], b.writes), frac(b.hints[2], b.writes),
                frac(b.hintAgreement(), b.writes));
  out << line;
  std::snprintf(line, sizeof line, "    of the BOC-only results at IW 3: %.1f%% never read, %.1f%% read and not overwritten before the warp ended\n",
                frac(b.bocUnread, b.writes), frac(b.bocAtExit, b.writes));
  out << line;
}

}  // namespace simtlm::cli

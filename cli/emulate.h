// `simtlm emulate`: a workload on the functional interpreter with the redundancy limit study.
#pragma once

#include <cstdint>

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "isa/bow_study.h"
#include "isa/interpreter.h"
#include "isa/limit_study.h"
#include "workloads/workload.h"

namespace simtlm::cli {

struct EmulateResult {
  std::string workload, description;
  workloads::Options options;
  isa::Kernel kernel;          // the first of the workload's kernels (per-PC figures are its)
  isa::LaunchConfig launch;    // the first launch
  size_t launches = 1, kernels = 1;  // a workload may run several (counts and study summed)
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  isa::BowStudyResult bow;     // with bowStudy: the bypass-opportunity study (docs/bow.md)
  std::string verifyMessage;  // empty when the output matches the C++ reference
  double hostSeconds = 0;
  bool limitStudy = true;
  bool bowStudy = false;
};

// With `limitStudy` false the interpreter runs without observers (its full speed). The launches
// together stop after `maxInstructions` warp instructions (limits.max_instructions): a
// simtlm::LimitError. `bowStudy` adds the BOW bypass-opportunity study.
EmulateResult emulate(const std::string& workload, const workloads::Options& options,
                      bool limitStudy = true, uint64_t maxInstructions = UINT64_MAX, bool bowStudy = false);
void printEmulateResult(std::ostream& out, const EmulateResult& r, bool perPc);
// Statistics of one interpreter run as a flat map from hierarchical name to number (interp.*,
// and limit.* when `limit` is given, bow.* when `bow` is).
nlohmann::json statsJson(const isa::ExecCounts& c, const isa::LimitStudyResult* limit,
                         const isa::BowStudyResult* bow = nullptr);
// The BOW study as a table: IW 2..7 with read and write bypass fractions, and the IW-3 split.
void printBowStudy(std::ostream& out, const isa::BowStudyResult& b);
// Statistics as a flat map from hierarchical name to number, beside the run's identity.
nlohmann::json toJson(const EmulateResult& r);

}  // namespace simtlm::cli

// A result on its way to the write-back unit: due at cycle `at`, when its register-file write is
// requested. Two channels with the standard sc_fifo interfaces carry them (docs/timing-model.md):
//   execute -> writeback   ALU results and parameter loads, written when they dispatch; the
//                          write-back unit takes them in its next step (the next cycle);
//   answers -> writeback   shared-memory loads and atomics, written when the shared-memory unit
//                          answers; taken in the same cycle (write-back runs after answers).
// Write-back takes the first channel's before the second's, which keeps them in the order they
// were made. Under the sequential scheduling they are pipeline registers committed after each
// step; under sm.scheduling=systemc, sc_fifo channels of the SM's module.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include <systemc>

#include "isa/instruction.h"
#include "model/regfile/types.h"

namespace simtlm::sm {

struct PendingResult {
  uint64_t at = 0;
  int slot = -1;  // warp slot
  isa::Instr instr{};
  std::optional<regfile::PhysReg> dest;  // its register-file write (OperandStage::dest)
};

std::ostream& operator<<(std::ostream& os, const PendingResult& r);

// How deep each channel must be: results one step may write (every execution unit instance
// dispatches at most one instruction per cycle; the shared-memory unit answers a few at most).
constexpr int kMaxResultsPerStep = 64;

// Both ends of a channel of PendingResults.
struct ResultChannel {
  sc_core::sc_fifo_in_if<PendingResult>* in = nullptr;
  sc_core::sc_fifo_out_if<PendingResult>* out = nullptr;
};

}  // namespace simtlm::sm

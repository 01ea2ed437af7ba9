// A kernel listing annotated with the static analyses, in the spirit of DARSIE Fig. 6.
#pragma once

#include <optional>
#include <string>

#include "isa/interpreter.h"
#include "isa/kernel.h"

namespace simtlm::isa {

struct AnnotateOptions {
  std::optional<Dim3> block;  // launch shape: adds launch-time promotion and shape-aware classes
  uint32_t warpSize = 32;
  int bowWindow = 3;          // BOW instruction window
  bool conditionalTidYZ = true;
};

// One line per instruction: DARSIE class (DR / CR with the thread-index components it depends
// on / V), the promoted class at launch when a block is given, the warp-level value shape
// (U / A / G), the BOW write-back hint, the PC and the instruction.
std::string annotateListing(const Kernel& k, const AnnotateOptions& opt);

// "DR", "V", "CR(x)", "CR(x,y)" ...
std::string redundancyLabel(bool vector, uint8_t deps);

}  // namespace simtlm::isa

// Kernel / instruction -> assembly text that assembles back to the same words.
#pragma once

#include <string>

#include "isa/kernel.h"

namespace simtlm::isa {

// One instruction without its PC; branch targets use the kernel's labels when given.
std::string disassemble(const Instr& in, const Kernel* kernel = nullptr);
// A whole kernel with directives and labels: assemble(disassemble(k)) has the same code words.
std::string disassemble(const Kernel& kernel);
// Label used for a branch target that has no name in the source.
std::string targetLabel(const Kernel* kernel, uint32_t pc);

}  // namespace simtlm::isa

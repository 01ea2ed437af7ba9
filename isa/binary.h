// The kernel binary file: code words plus the metadata a launch needs (name, registers,
// shared memory, parameters, labels). Little-endian; layout in isa/ISA.md.
#pragma once

#include <string>

#include "isa/kernel.h"

namespace simtlm::isa {

std::string serializeKernel(const Kernel& k);
// Throws InputError (file, offset as column) on a truncated or malformed binary.
Kernel deserializeKernel(const std::string& bytes, const std::string& fileName);

}  // namespace simtlm::isa

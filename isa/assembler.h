// Assembly text -> Kernel. Syntax is described in isa/ISA.md.
#pragma once

#include <string>

#include "isa/kernel.h"

namespace simtlm::isa {

// Assembles `text`; `fileName` is used in error messages. Throws InputError naming file, line
// and column of the first error.
Kernel assemble(const std::string& text, const std::string& fileName = "<input>");
// Reads and assembles a file; a missing file is an InputError at line 0.
Kernel assembleFile(const std::string& path);

}  // namespace simtlm::isa

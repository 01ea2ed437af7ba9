// Subcommands of the simtlm program.
#pragma once

namespace simtlm::cli {

// Parses argv, runs one subcommand and returns the process exit code. Bad input prints one
// clear message on stderr and returns non-zero; nothing is thrown out of here.
int run(int argc, char** argv);

}  // namespace simtlm::cli

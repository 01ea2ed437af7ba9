// The run limits on the command line (docs/cli.md), GPGPU-Sim's -gpgpu_max_cycle and
// -gpgpu_max_insn: --max-cycles N and --max-instructions N set the parameters limits.max_cycles
// and limits.max_instructions (docs/configuration.md) after the scenario's own, as --set does.
#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace simtlm::cli {

// Adds --max-cycles (when `withCycles`: the timing model has cycles, the interpreter does not)
// and --max-instructions.
void addLimitOptions(boost::program_options::options_description& desc, bool withCycles);
// The options given, as `key=value` assignments for --set.
std::vector<std::string> limitSets(const boost::program_options::variables_map& vm);
// For an error that a run limit stopped: the line that says how to raise the limit ("" for any
// other error).
std::string limitHint(const std::string& error);

}  // namespace simtlm::cli

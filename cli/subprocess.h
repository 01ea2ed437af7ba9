// Running simtlm itself as a child process: one simulation per process (SystemC elaborates
// once), so commands that need several simulations (bench, compare, sweep) start one child each.
// Also the plotting script (cli/plot.h).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

struct ChildResult {
  int exitCode = -1;  // the child's exit status; -1 when it could not run or died by a signal
  std::string output; // what it wrote on stdout and stderr, interleaved
};

// Runs this program (/proc/self/exe) with `args` and waits for it.
ChildResult runSelf(const std::vector<std::string>& args);
// Runs `program` (a path, not searched on PATH) with `argv` (argv[0] first) and waits for it;
// exit code 127 when it cannot be started.
ChildResult runProgram(const std::string& program, const std::vector<std::string>& argv);

// From now on SIGINT and SIGTERM to this process first send SIGTERM to every child runSelf has
// running, then end the process as the signal would have (a sweep or compare stopped with
// Ctrl-C or kill leaves no simulation behind).
void stopChildrenOnSignal();

}  // namespace simtlm::cli

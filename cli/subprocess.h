// Running simtlm itself as a child process: one simulation per process (SystemC elaborates
// once), so commands that need several simulations (bench, compare, sweep) start one child each.
// Also other programs (the plotting script; sweep --backend slurm: sbatch, squeue) and quoting for
// shell lines.
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

// Runs another program, found on PATH like a shell would (argv[0]), with stdin from /dev/null,
// and waits for it; stdout and stderr are kept apart (for sbatch, squeue: their answer on stdout,
// their complaint on stderr). exitCode 127: it could not be started.
struct ProgramResult {
  int exitCode = -1;  // -1: it died by a signal
  std::string out, err;
};
ProgramResult runProgram(const std::vector<std::string>& argv);
// The absolute path of `name` on PATH, or "" when it is not there.
std::string findOnPath(const std::string& name);

// `w` as one shell word: as it is when it can be, else in single quotes.
std::string shellQuote(const std::string& w);

// From now on SIGINT and SIGTERM to this process first send SIGTERM to every child runSelf has
// running, then end the process as the signal would have (a sweep or compare stopped with
// Ctrl-C or kill leaves no simulation behind).
void stopChildrenOnSignal();

}  // namespace simtlm::cli

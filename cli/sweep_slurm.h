// `simtlm sweep --backend slurm`: the points without a result run as one Slurm job array
// (sbatch --array), one array task per point, each writing the same result file as the local
// backend; the sweep waits for the array or returns at once, and `--collect` later waits,
// resubmits the points that still have no result as a new array, and lets the caller aggregate
// (docs/sweeps.md, "On a cluster").
//
// Files in DIR/slurm/: state.json (the submissions: job id, when, the sbatch command, the points
// of each array task), tasks-K.txt (submission K's command lines, one per array task),
// job-K.sh (its job script: task N runs line N+1) and logs/JOBID_TASK.log (each task's output).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/sweep_spec.h"

namespace simtlm::cli {

// Where a sweep's points leave their results and how each one runs.
struct SweepFiles {
  std::function<std::string(const SweepPoint&)> json;     // its result file (absolute)
  std::function<std::string(const SweepPoint&)> command;  // its `simtlm run` command line
  std::function<bool(const SweepPoint&)> done;            // its result file says it passed
};

struct SlurmOptions {
  std::string partition, time;          // empty: the cluster's default
  std::vector<std::string> sbatchArgs;  // handed to sbatch as they are, after ours
  int arrayLimit = 0;                   // tasks running at once (--array=...%N); 0: no limit
  bool wait = true;                     // false: submit and return
  double waitTimeout = 0;               // seconds; 0: wait while the array is in the queue
  bool collect = false;                 // --collect: the folder must hold a submission
};

enum class SlurmOutcome {
  kFinished,     // every point ran (or no array is left in the queue): aggregate now
  kSubmitted,    // an array was submitted and the sweep does not wait (exit 0)
  kStillQueued,  // an array is still in the queue: --no-wait on --collect, or the wait timed out
};

SlurmOutcome runSweepOnSlurm(const SweepSpec& spec, const std::string& outDir, const SweepFiles& files,
                             const SlurmOptions& options);

}  // namespace simtlm::cli

// The rows of `simtlm microbench` (docs/microbenchmarks.md): which scenario each is measured
// on, how its value comes from the per-launch statistics, its target (measured on Pascal where
// a measurement is published) with the source, GPGPU-Sim's configuration value beside it, the
// tolerance, and for a known gap the documented range simtlm's value must stay in.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace simtlm::cli::microbench {

// One child run: a scenario of scenarios/micro/ and the --set overrides the row needs.
struct Run {
  std::string scenario;           // file name in scenarios/micro/
  std::vector<std::string> sets;  // applied after the user's --set (the row's own condition)
};

// Per-launch statistics of one run (the "launches" array of `simtlm run --json`).
using Launches = std::vector<nlohmann::json>;

struct Row {
  std::string name, unit;
  int run = 0;                                       // index into runs()
  std::function<double(const Launches&)> value;      // simtlm's value from the run
  double target = 0;                                 // measured on Pascal where published
  double config = std::nan("");                      // what GPGPU-Sim's Pascal configuration sets
  double lo = 0, hi = 0;                             // the tolerance, as the accepted range
  std::string tolerance;                             // how the tolerance is stated ("+-10%")
  std::string source;                                // short citation (docs: the full one)
  bool gap = false;                                  // a known gap (docs/microbenchmarks.md)
  double gapLo = 0, gapHi = 0;                       // the documented range of a known gap
  std::string twin;                                  // a CUDA row: its assembly row's name
};

// Which kernels the rows run: the hand-written assembly of scenarios/micro/kernels/, or the CUDA
// twins of the latency rows (scenarios/micro/cuda/: nvcc's PTX of micro.cu).
enum class Source { Assembly, Cuda };

const std::vector<Run>& runs(Source source = Source::Assembly);
const std::vector<Row>& rows(Source source = Source::Assembly);

// pass: within the tolerance; gap: a known gap, inside its documented range; FAIL otherwise.
std::string status(const Row& r, double value);

}  // namespace simtlm::cli::microbench

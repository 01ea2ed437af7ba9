// Workloads: a kernel plus its inputs, launch shape, C++ reference and verification.
// Every workload carries its own verify (MGPUSim practice).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/interpreter.h"
#include "isa/kernel.h"
#include "isa/memory.h"

namespace simtlm::workloads {

// Integer options of a workload ("size=128"); unknown keys and out-of-range values are errors.
using Options = std::map<std::string, long>;

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Kernel source file, relative to the kernels directory.
  virtual std::string kernelFile() const = 0;
  // Allocates and initializes buffers in `mem`; returns the launch (grid, block, parameters).
  virtual isa::LaunchConfig setup(isa::GlobalMemory& mem) const = 0;
  // Compares output buffers with the C++ reference: empty when correct, else what differs.
  virtual std::string verify(const isa::GlobalMemory& mem) const = 0;
};

// Names of all workloads, and a factory that validates the options.
std::vector<std::string> workloadNames();
std::unique_ptr<Workload> makeWorkload(const std::string& name, const Options& options = {});

std::string kernelDir();
isa::Kernel loadKernel(const Workload& w);

// Reads an option with its default and checks its allowed range (std::invalid_argument).
long option(const Options& o, const std::string& key, long def, long lo, long hi);
void rejectUnknown(const Options& o, const std::vector<std::string>& known, const std::string& workload);

// Bit-exact comparison of a float buffer with a reference; reports the first mismatches.
std::string compareWords(const std::string& buffer, const std::vector<uint32_t>& got,
                         const std::vector<uint32_t>& want);

// Constructors of the individual workloads (one file each).
std::unique_ptr<Workload> makeVecAdd(const Options& o);
std::unique_ptr<Workload> makeMatmul(const Options& o);
std::unique_ptr<Workload> makeFig3(const Options& o);
// DARSIE Table 1 workloads (issue 6; docs/workloads/); not yet written: backprop, binomial,
// convsep, nlm (declared for the sessions that add them), Floyd-Warshall and pathfinder.
std::unique_ptr<Workload> makeDct8x8(const Options& o);
std::unique_ptr<Workload> makeFwt(const Options& o);
std::unique_ptr<Workload> makeHotspot(const Options& o);
std::unique_ptr<Workload> makeSrad(const Options& o);
std::unique_ptr<Workload> makeBackprop(const Options& o);
std::unique_ptr<Workload> makeBinomial(const Options& o);
std::unique_ptr<Workload> makeCp(const Options& o);
std::unique_ptr<Workload> makeLibor(const Options& o);
std::unique_ptr<Workload> makeConvSep(const Options& o);
std::unique_ptr<Workload> makeNlm(const Options& o);

}  // namespace simtlm::workloads

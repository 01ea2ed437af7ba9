// Scenario files (docs/scenarios.md): machine configuration, mechanism, buffers, kernel launches
// in order, and checks, in one human-writable YAML file. Loading validates everything that can
// be validated without running (kernels are assembled, workloads built, the configuration
// resolved); every error is a simtlm::InputError naming file, line, column and key.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "isa/kernel.h"
#include "isa/launch.h"
#include "model/common/config.h"
#include "model/common/yaml_reader.h"
#include "workloads/workload.h"

namespace simtlm::scenario {

using yaml::Where;

enum class ElemType { U32, S32, F32 };
const char* typeName(ElemType t);

// A number as written for a buffer of some type: an integer for u32/s32, a float for f32.
struct Number {
  int64_t i = 0;
  double f = 0;
};

// Contents of a buffer: how it starts (init) or what it must hold at the end (a check).
struct Contents {
  enum class Kind { Zeros, Constant, Ramp, Random, Words } kind = Kind::Zeros;
  ElemType type = ElemType::U32;
  Number a, b;                  // constant: a; ramp: start a, step b; random: min a, max b
  uint64_t seed = 0;            // random
  std::vector<uint32_t> words;  // a list or a file, already converted to words
  std::string file;             // the file the words came from, if any
  Where where;
  std::string path;             // its key path, for messages

  // The first `n` words. Throws InputError (at `where`) when the list or file has another
  // length, or a ramp leaves the type's range.
  std::vector<uint32_t> generate(size_t n) const;
  std::string describe() const;
};

struct Buffer {
  std::string name;
  ElemType type = ElemType::U32;
  uint32_t words = 0;
  Contents init;
  Where where;
};

// One kernel parameter word: a buffer's address or a number.
struct Param {
  std::string buffer;  // empty: `value`
  uint32_t value = 0;
  Where where;
};

struct Launch {
  Where where;
  std::string path;        // "launches[N]", for messages
  std::string kernelFile;  // resolved path of a `kernel:` launch
  std::shared_ptr<const workloads::Workload> workload;  // a `workload:` launch
  workloads::Options options;
  std::vector<isa::Kernel> kernels;  // a kernel launch: its one kernel; a workload: kernelFiles() order
  workloads::KernelSource source = workloads::KernelSource::Default;  // a workload's `source:`
  std::string entry;                   // a PTX kernel launch: the `.entry` it runs
  std::vector<std::string> constants;  // a PTX kernel's hidden parameters: the buffer bound to each
  isa::Dim3 grid, block;
  uint32_t warpSize = 0;  // 0: the machine's gpu.warp_size
  std::vector<Param> params;
  std::string label() const;  // "kernel vecadd" or "workload matmul"
};

struct Check {
  // Conservation (simtlm run --contract): issued plus the mechanism's removed warp
  // instructions equal the interpreter's.
  enum class Kind { Verify, BufferEquals, BufferInterpreter, Stat, ExpectError, Conservation } kind = Kind::Verify;
  Where where;
  std::string buffer;   // buffer checks
  Contents expected;    // BufferEquals
  std::string stat, op; // Stat: name, one of == != < <= > >=
  double value = 0;
  std::string text;     // ExpectError: the substring the error message must contain
  std::string describe() const;
};

struct Scenario {
  std::string file, name, description;
  std::string mechanism = "baseline";
  std::string configFile;  // resolved path, empty for the built-in defaults
  std::vector<std::pair<std::string, std::string>> sets;  // `set:` overrides in order
  config::GpuConfig config;  // resolved (validated) machine configuration
  std::vector<Buffer> buffers;
  std::vector<Launch> launches;
  std::vector<Check> checks;

  const Buffer* findBuffer(const std::string& name) const;
  bool expectsError() const;
  // Every file the scenario reads, as (what, path): itself, its configuration, kernels and
  // word files (so that no output overwrites one).
  std::vector<std::pair<std::string, std::string>> inputFiles() const;
};

// Mechanisms a scenario may name (model/mechanisms/registry.h), baseline first.
std::vector<std::string> knownMechanisms();
// Why `name` is not a mechanism a run can take (an unknown name, a bad or conflicting
// composition "a+b"; docs/mechanisms.md), or empty when it is.
std::string mechanismProblem(const std::string& name);
// A comma-separated list of such names (compare, bench: `--mechanisms baseline,darsie`), each
// checked; std::invalid_argument naming `option` for an empty list, a bad name or one listed twice.
std::vector<std::string> mechanismList(const std::string& option, const std::string& text);
// Statistics the functional interpreter produces (interp.* and limit.*).
std::vector<std::string> interpreterStatNames();

// Loads and validates a scenario file. Relative paths in it are looked up next to the file,
// then in the repository (configurations) or workloads/kernels (kernels).
Scenario loadScenario(const std::string& path);
// The same from text; `fileName` names the file in messages and `baseDir` anchors paths.
Scenario loadScenarioText(const std::string& text, const std::string& fileName, const std::string& baseDir);

// Reads a kernel: `.bin` (checked binary), `.ptx` (translated; `entry` names the kernel of a
// module with several, docs/ptx.md) or assembly source.
isa::Kernel loadKernelFile(const std::string& path, const std::string& entry = "");

}  // namespace simtlm::scenario

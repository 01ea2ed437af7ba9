// libFuzzer target: scenario YAML (model/common/yaml_reader, cli/scenario*), loaded as `simtlm run` and
// `emulate` load it, with relative paths anchored in scenarios/ so that the seeds' kernels,
// configurations and word files are found. Loading assembles kernels, builds workload inputs
// and resolves the configuration; it runs nothing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/scenario.h"
#include "fuzz/fuzz_support.h"
#include "workloads/data_dir.h"

using namespace simtlm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.yaml";
  try {
    scenario::loadScenarioText(text, file, workloads::dataDir() + "/scenarios");
  } catch (const InputError& e) {
    // A kernel or word file the scenario names reports its own file; its text is not ours.
    if (e.file() == file) fuzz::checkInputError(e, file, text);
    else fuzz::checkOneLine(e.what());
  }
  return 0;
}

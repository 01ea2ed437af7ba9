// libFuzzer target: energy tables (model/energy/table, through model/common/yaml_reader).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"
#include "model/energy/table.h"

using namespace simtlm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.yaml";
  try {
    energy::parseTable(text, file);
  } catch (const InputError& e) {
    fuzz::checkInputError(e, file, text);
  }
  return 0;
}

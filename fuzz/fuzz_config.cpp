// libFuzzer target: configuration INI (cli/config_loader, model/common/params), as
// `simtlm params --config FILE` reads it: load, cross-check (resolve), list every parameter.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/config_loader.h"
#include "fuzz/fuzz_support.h"

using namespace simtlm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.ini";
  config::ConfigLoader loader;
  try {
    loader.loadText(text, file);
  } catch (const InputError& e) {
    fuzz::checkInputError(e, file, text);
    return 0;
  }
  try {
    loader.resolve();
  } catch (const config::ConfigError& e) {
    fuzz::checkOneLine(e.what());
    return 0;
  }
  config::formatParams(loader);
  return 0;
}

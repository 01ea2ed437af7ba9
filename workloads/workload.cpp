#include "workloads/workload.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"

namespace simtlm::workloads {

std::vector<std::string> workloadNames() {
  return {"vecadd", "matmul", "fig3", "hotspot", "srad", "cp", "libor", "dct8x8", "fwt"};
}

std::unique_ptr<Workload> makeWorkload(const std::string& name, const Options& o) {
  if (name == "vecadd") return makeVecAdd(o);
  if (name == "matmul") return makeMatmul(o);
  if (name == "fig3") return makeFig3(o);
  if (name == "hotspot") return makeHotspot(o);
  if (name == "srad") return makeSrad(o);
  if (name == "cp") return makeCp(o);
  if (name == "libor") return makeLibor(o);
  if (name == "dct8x8") return makeDct8x8(o);
  if (name == "fwt") return makeFwt(o);
  std::string all;
  for (const auto& n : workloadNames()) all += (all.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown workload '" + name + "' (known: " + all + ")");
}

std::string kernelDir() {
  if (const char* env = std::getenv("SIMTLM_KERNEL_DIR")) return env;
  return SIMTLM_KERNEL_DIR;
}

// With the DARSIE compiler pass's hint bits (Sec. 4.2), as the scenario loader compiles.
isa::Kernel loadKernel(const Workload& w) {
  isa::Kernel k = isa::assembleFile(kernelDir() + "/" + w.kernelFile());
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  return k;
}

long option(const Options& o, const std::string& key, long def, long lo, long hi) {
  auto it = o.find(key);
  long v = it == o.end() ? def : it->second;
  if (v < lo || v > hi)
    throw std::invalid_argument("option " + key + " = " + std::to_string(v) + " is outside [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

void rejectUnknown(const Options& o, const std::vector<std::string>& known, const std::string& workload) {
  for (const auto& [k, v] : o) {
    bool ok = false;
    for (const auto& n : known) ok = ok || n == k;
    if (!ok) {
      std::string all;
      for (const auto& n : known) all += (all.empty() ? "" : ", ") + n;
      throw std::invalid_argument("workload " + workload + " has no option '" + k + "' (options: " + all + ")");
    }
  }
}

std::string compareWords(const std::string& buffer, const std::vector<uint32_t>& got,
                         const std::vector<uint32_t>& want) {
  if (got.size() < want.size()) return buffer + ": buffer too small";
  std::ostringstream s;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (bad < 5) s << buffer << "[" << i << "] = 0x" << std::hex << got[i] << ", expected 0x" << want[i] << std::dec << "\n";
    ++bad;
  }
  if (bad) s << bad << " of " << want.size() << " words differ";
  return s.str();
}

}  // namespace simtlm::workloads

#include "isa/launch.h"

#include <stdexcept>

#include "isa/local_memory.h"

namespace simtlm::isa {

std::string Dim3::str() const {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

void LaunchConfig::validate(const Kernel& kernel) const {
  auto range = [](const char* what, uint64_t v, uint64_t lo, uint64_t hi) {
    if (v < lo || v > hi)
      throw std::invalid_argument(std::string(what) + " = " + std::to_string(v) + " is outside [" +
                                  std::to_string(lo) + ", " + std::to_string(hi) + "]");
  };
  range("warp size", warpSize, 1, 32);
  range("grid.x", grid.x, 1, 0x7FFFFFFF);
  range("grid.y", grid.y, 1, 65535);
  range("grid.z", grid.z, 1, 65535);
  range("block.x", block.x, 1, 1024);
  range("block.y", block.y, 1, 1024);
  range("block.z", block.z, 1, 64);
  range("threads per block", block.count(), 1, 1024);
  if (localSpaceBytes(kernel, *this) > kMaxLocalSpaceBytes)
    throw std::invalid_argument("local memory of the launch (" + std::to_string(kernel.localBytes) + " bytes x " +
                                std::to_string(grid.count() * block.count()) + " threads) is outside [0, " +
                                std::to_string(kMaxLocalSpaceBytes) + "] bytes");
  if (params.size() != kernel.params.size()) {
    std::string msg = "kernel '" + kernel.name + "' takes " + std::to_string(kernel.params.size()) +
                      " parameters, launch gives " + std::to_string(params.size());
    for (size_t i = params.size(); i < kernel.params.size(); ++i)
      msg += (i == params.size() ? " (missing '" : ", '") + kernel.params[i].name + "'" +
             (i + 1 == kernel.params.size() ? ")" : "");
    throw std::invalid_argument(msg);
  }
}

}  // namespace simtlm::isa

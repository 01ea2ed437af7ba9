#include "cli/results.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace simtlm::cli {

void writeFileAtomically(const std::string& path, const std::string& bytes) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    out << bytes;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write '" + path + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "'");
  }
}

void writeJsonAtomically(const std::string& path, const nlohmann::json& j) {
  writeFileAtomically(path, j.dump(2) + "\n");
}

}  // namespace simtlm::cli

#include "workloads/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace simtlm::workloads {
namespace {

namespace fs = std::filesystem;

std::string& explicitDir() {
  static std::string dir;
  return dir;
}

// A data folder holds configs/ at least: a wrong folder is reported, not half used.
bool looksLikeDataDir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "configs", ec);
}

std::string checked(const std::string& dir, const std::string& from) {
  if (!looksLikeDataDir(dir))
    throw std::runtime_error(from + " names '" + dir + "', which has no configs/ folder: it must name simtlm's "
                             "data folder (share/simtlm of an installation, or a build's share/simtlm)");
  return dir;
}

}  // namespace

void setDataDir(const std::string& dir) { explicitDir() = dir; }

std::string dataDir() {
  if (const char* env = std::getenv("SIMTLM_DATA_DIR"); env && *env) return checked(env, "SIMTLM_DATA_DIR");
  if (!explicitDir().empty()) return checked(explicitDir(), "setDataDir()");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    for (int up = 0; up <= 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
      if (looksLikeDataDir(dir / "share" / "simtlm")) return (dir / "share" / "simtlm").string();
      if (dir == dir.root_path()) break;
    }
  }
  throw std::runtime_error("cannot find simtlm's data folder (configs/, workloads/kernels/, scenarios/): looked for "
                           "share/simtlm beside '" + (ec ? std::string("the program") : exe.string()) +
                           "' and in its parents; set SIMTLM_DATA_DIR to that folder");
}

std::string kernelDir() { return dataDir() + "/workloads/kernels"; }
std::string cudaDir() { return dataDir() + "/workloads/cuda"; }

}  // namespace simtlm::workloads

#include "cli/results.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace simtlm::cli {

void writeFileAtomically(const std::string& path, const std::string& bytes) {
  std::string tmp = path + ".tmp";
  auto failed = [&](int err) {
    std::remove(tmp.c_str());
    return std::runtime_error("cannot write '" + path + "': " + std::strerror(err));
  };
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw failed(errno ? errno : EIO);
    out << bytes;
    out.flush();
    if (!out) throw failed(errno ? errno : EIO);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw failed(errno);
}

namespace {

namespace fs = std::filesystem;

std::string folderOf(const std::string& path) {
  const std::string dir = fs::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// The reason `dir` cannot take new files ("" when it can).
std::string unwritable(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return std::strerror(ENOTDIR);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return "";
}

}  // namespace

void checkOutputs(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& o = outputs[i];
    const std::string head = "--" + o.option + " '" + o.path + "': ";
    std::error_code ec;
    if (fs::is_directory(o.path, ec)) throw std::invalid_argument(head + "is a folder; name a file");
    if (fs::exists(o.path, ec)) {
      for (const auto& in : inputs)
        if (!in.path.empty() && fs::equivalent(o.path, in.path, ec))
          throw std::invalid_argument(head + "is the " + in.what + " this command reads; refusing to overwrite it");
    }
    for (size_t j = 0; j < i; ++j)
      if (fs::absolute(o.path).lexically_normal() == fs::absolute(outputs[j].path).lexically_normal())
        throw std::invalid_argument(head + "is also the file of --" + outputs[j].option);
    if (const std::string why = unwritable(folderOf(o.path)); !why.empty())
      throw std::invalid_argument(head + "cannot write in folder '" + folderOf(o.path) + "': " + why);
  }
}

void checkOutputFolder(const std::string& option, const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(dir).lexically_normal();
  if (fs::exists(p, ec) && !fs::is_directory(p, ec))
    throw std::invalid_argument("--" + option + " '" + dir + "': " + std::strerror(ENOTDIR));
  while (!fs::exists(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  if (const std::string why = unwritable(p.string()); !why.empty())
    throw std::invalid_argument("--" + option + " '" + dir + "': cannot write in folder '" + p.string() + "': " + why);
}

void writeJsonAtomically(const std::string& path, const nlohmann::json& j) {
  writeFileAtomically(path, j.dump(2) + "\n");
}

double sumPerSm(const nlohmann::json& stats, const std::string& suffix) {
  double total = 0;
  for (const auto& [k, v] : stats.items()) {
    if (k.size() <= suffix.size() + 3 || k.compare(0, 2, "sm") != 0 || !v.is_number()) continue;
    const size_t dot = k.find('.');
    if (dot == std::string::npos || k.compare(dot + 1, std::string::npos, suffix) != 0) continue;
    if (k.find_first_not_of("0123456789", 2) != dot) continue;
    total += v.get<double>();
  }
  return total;
}

}  // namespace simtlm::cli

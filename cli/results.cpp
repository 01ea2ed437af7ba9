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
  writeFileAtomically(path, [&](std::ostream& out) { out << bytes; });
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  // A missing folder is made (`--json results/run.json` in a fresh checkout); checkOutputs has
  // already refused a path under a file or an unwritable folder.
  if (const auto dir = std::filesystem::path(path).parent_path(); !dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot write '" + path + "': cannot make folder '" + dir.string() + "': " + ec.message());
  }
  std::string tmp = path + ".tmp";
  auto failed = [&](int err) {
    std::remove(tmp.c_str());
    return std::runtime_error("cannot write '" + path + "': " + std::strerror(err));
  };
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw failed(errno ? errno : EIO);
    write(out);
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

// The folder that holds `path` once its missing folders are made: its nearest existing ancestor.
std::string nearestExisting(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(dir).lexically_normal();
  while (!fs::exists(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  return p.string();
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
    // A missing folder is made when the file is written; its nearest existing ancestor must take it.
    const std::string folder = nearestExisting(folderOf(o.path));
    if (const std::string why = unwritable(folder); !why.empty())
      throw std::invalid_argument(head + "cannot write in folder '" + folder + "': " + why);
  }
}

void checkOutputFolder(const std::string& option, const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw std::invalid_argument("--" + option + " '" + dir + "': " + std::strerror(ENOTDIR));
  const std::string folder = nearestExisting(dir);
  if (const std::string why = unwritable(folder); !why.empty())
    throw std::invalid_argument("--" + option + " '" + dir + "': cannot write in folder '" + folder + "': " + why);
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

#include "isa/input_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/diagnostics.h"

namespace simtlm {

std::string readInputFile(const std::string& path, const std::string& what, bool text) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const char* article = std::strchr("aeiou", what.empty() ? 'x' : what[0]) ? "an " : "a ";
    throw InputError(path, 0, 0, "is a folder, not " + std::string(article) + what);
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the " + what + ": " + std::strerror(errno ? errno : ENOENT));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, 0, "cannot read the " + what + ": " + std::strerror(errno ? errno : EIO));
  std::string s = ss.str();
  if (text && s.compare(0, 3, "\xEF\xBB\xBF") == 0) s.erase(0, 3);
  return s;
}

std::string printableText(const std::string& m) {
  std::string out;
  out.reserve(m.size());
  const auto* p = reinterpret_cast<const unsigned char*>(m.data());
  const size_t n = m.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = len > 0 && i + len <= n && !(len == 2 && c < 0xC2);
    for (size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
    if (len == 1) ok = c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7F);
    if (ok) {
      out.append(m, i, len);
      i += len;
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
      ++i;
    }
  }
  return out;
}

}  // namespace simtlm

// Shared by the libFuzzer targets: the promise every parser makes on any input is one clear
// error of its own type, naming where, in one line. Anything else is a finding: a crash or
// sanitizer report (libFuzzer catches those), an exception of another type (it escapes
// LLVMFuzzerTestOneInput and aborts), or an error message that breaks the promise (abort here).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "isa/diagnostics.h"

namespace simtlm::fuzz {

[[noreturn]] inline void broken(const std::string& what, const std::string& message) {
  std::fprintf(stderr, "fuzz: %s: [%s]\n", what.c_str(), message.c_str());
  std::abort();
}

// Valid UTF-8 (what a terminal shows as text), without control characters other than a tab.
inline bool isText(const std::string& s, bool lines = false) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\t' && !(lines && c == '\n')) || c == 0x7f) return false;
    const size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || i + n > s.size() || (n == 2 && c < 0xc2)) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

// One non-empty line that echoes no raw bytes.
inline void checkOneLine(const std::string& message) {
  if (message.empty()) broken("empty error message", message);
  if (message.find_first_of("\n\r") != std::string::npos) broken("error message spans lines", message);
  if (!isText(message)) broken("error message with control characters or invalid UTF-8", message);
}

// A kernel's run-time fault may list its warps on further lines; it still echoes no raw bytes.
inline void checkRunError(const std::string& message) {
  if (message.empty()) broken("empty error message", message);
  if (!isText(message, true)) broken("error message with control characters or invalid UTF-8", message);
}

// An InputError must name `file`; a line inside the text (or the line after its end, for an
// error at end of input) with a column, or line 0 for the file as a whole.
inline void checkInputError(const InputError& e, const std::string& file, const std::string& text) {
  checkOneLine(e.what());
  if (e.file() != file) broken("error names another file than " + file, e.what());
  if (e.message().empty()) broken("error without a message", e.what());
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (e.line() < 0 || static_cast<size_t>(e.line()) > lines + 1) broken("error line outside the text", e.what());
  if (e.line() > 0 && e.col() < 1) broken("error with a line but no column", e.what());
}

}  // namespace simtlm::fuzz

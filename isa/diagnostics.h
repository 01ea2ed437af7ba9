// Errors that name where they happened: a source position or an execution context.
#pragma once

#include <stdexcept>
#include <string>

namespace simtlm {

// `s` as one line of text: every control character, DEL and byte that is not part of valid UTF-8
// is written as \xNN. Errors quote their inputs through this, so that no raw byte of an input
// reaches a terminal (a newline would split the message, an escape sequence would be obeyed).
inline std::string printableText(const std::string& s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80                          ? 1
               : (c & 0xe0) == 0xc0 && c >= 0xc2   ? 2
               : (c & 0xf0) == 0xe0                ? 3
               : (c & 0xf8) == 0xf0 && c <= 0xf4   ? 4
                                                   : 0;  // a stray continuation or invalid lead byte
    for (size_t k = 1; k < n; ++k)
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) n = 0;
    if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7f))) {
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

// An error in an input file: "file:line:col: error: message" (line 0: the file as a whole),
// one line of text (printableText).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int col, const std::string& message)
      : std::runtime_error(printableText(line > 0 ? file + ":" + std::to_string(line) + ":" +
                                                        std::to_string(col) + ": error: " + message
                                                  : file + ": error: " + message)),
        file_(std::move(file)), line_(line), col_(col), message_(printableText(message)) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int col() const { return col_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_, col_;
  std::string message_;
};

// A run-time fault of a kernel (bad access, deadlock): the message names block, warp, lane,
// PC and address where they apply.
class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run limit (instructions, cycles) was reached: the run was stopped, not faulted. The message's
// first line names the limit; the lines after it say where each warp was.
class LimitError : public ExecError {
 public:
  using ExecError::ExecError;
};

}  // namespace simtlm

// Errors that name where they happened: a source position or an execution context.
#pragma once

#include <stdexcept>
#include <string>

#include "isa/input_file.h"

namespace simtlm {

// `s` as one line of text: printableText (isa/input_file.h), with newlines written as \x0a too.
// Errors quote their inputs through this, so that no raw byte of an input reaches a terminal and
// a message never splits (a newline in a YAML key did; an escape sequence in an INI value was
// obeyed by the terminal).
inline std::string oneLineText(const std::string& s) {
  std::string out;
  for (char c : printableText(s)) {
    if (c == '\n') out += "\\x0a";
    else out += c;
  }
  return out;
}

// An error in an input file: "file:line:col: error: message" (line 0: the file as a whole),
// one line of text (oneLineText).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int col, const std::string& message)
      : std::runtime_error(oneLineText(line > 0 ? file + ":" + std::to_string(line) + ":" +
                                                      std::to_string(col) + ": error: " + message
                                                : file + ": error: " + message)),
        file_(std::move(file)), line_(line), col_(col), message_(oneLineText(message)) {}
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

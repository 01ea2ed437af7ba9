// Errors that name where they happened: a source position or an execution context.
#pragma once

#include <stdexcept>
#include <string>

namespace simtlm {

// An error in an input file: "file:line:col: error: message" (line 0: the file as a whole).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int col, const std::string& message)
      : std::runtime_error(line > 0 ? file + ":" + std::to_string(line) + ":" +
                                          std::to_string(col) + ": error: " + message
                                    : file + ": error: " + message),
        file_(std::move(file)), line_(line), col_(col), message_(message) {}
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

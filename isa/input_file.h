// Reading an input file the same way for every format: a folder, a missing or unreadable file is
// one InputError naming the path and the system's reason, and a text file may start with a UTF-8
// byte-order mark (some editors write one), which is dropped.
#pragma once

#include <string>

namespace simtlm {

// The whole of `path`; `what` names the kind of file in messages ("scenario file"). With `text`,
// a leading UTF-8 byte-order mark is removed. Throws InputError.
std::string readInputFile(const std::string& path, const std::string& what, bool text = true);

// `message` with every byte that is not printable ASCII, tab, newline or part of a well-formed
// UTF-8 sequence written as \xNN: messages never echo raw bytes of a binary input.
std::string printableText(const std::string& message);

}  // namespace simtlm

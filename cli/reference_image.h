// The functional interpreter's final buffers that a timing run compares with (equals_interpreter
// checks), kept from the reference run, which runs before the simulation, until the checks, which
// run after it. Only the buffers the checks name are kept (all of them for `buffer: "*"`), moved
// out of the interpreter's memory and written to an unnamed temporary file, so they do not stand
// in memory beside the simulated DRAM and the host's copy (issue 39: peak RSS); a comparison
// reads them back a chunk at a time. Kept in memory when no temporary file can be made.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/memory.h"

namespace simtlm::scenario {

class ReferenceImage {
 public:
  // Takes the buffers of `mem` named in `names` ("*": every buffer); their bytes are freed in
  // `mem`. `inMemory` keeps them in memory (no temporary file).
  ReferenceImage(isa::GlobalMemory& mem, const std::vector<std::string>& names, bool inMemory = false);

  bool has(const std::string& name) const { return buffers_.count(name) > 0; }
  bool spilled() const { return file_ != nullptr; }
  // Buffer `name`'s bytes in order, a chunk at a time: f(offset, data, n), n a multiple of 4
  // except perhaps the last. False when it cannot be read back (the message in `error`).
  bool forEachChunk(const std::string& name,
                    const std::function<void(size_t offset, const uint8_t* data, size_t n)>& f,
                    std::string& error) const;
  size_t size(const std::string& name) const { return buffers_.at(name).size; }

  static constexpr size_t kChunk = size_t{1} << 20;

 private:
  struct Buffer {
    size_t offset = 0;  // in the file
    size_t size = 0;
    std::vector<uint8_t> bytes;  // when not spilled
  };
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::map<std::string, Buffer> buffers_;
  std::unique_ptr<std::FILE, Close> file_;
};

}  // namespace simtlm::scenario

#include "cli/reference_image.h"

#include <algorithm>

namespace simtlm::scenario {

ReferenceImage::ReferenceImage(isa::GlobalMemory& mem, const std::vector<std::string>& names, bool inMemory) {
  const bool all = std::find(names.begin(), names.end(), "*") != names.end();
  std::vector<std::pair<std::string, std::vector<uint8_t>*>> kept;
  size_t offset = 0;
  for (size_t i = 0; i < mem.regions().size(); ++i) {
    const auto& r = mem.regions()[i];
    if (!all && std::find(names.begin(), names.end(), r.name) == names.end()) continue;
    // The regions are the memory's to give away here: moved out, not copied.
    kept.emplace_back(r.name, &mem.bytes(i));
    Buffer& b = buffers_[r.name];
    b.size = r.bytes.size();
    b.offset = offset;
    offset += b.size;
  }
  if (!inMemory) file_.reset(std::tmpfile());
  for (size_t i = 0; file_ && i < kept.size(); ++i)
    if (std::fwrite(kept[i].second->data(), 1, kept[i].second->size(), file_.get()) != kept[i].second->size())
      file_.reset();
  if (file_ && std::fflush(file_.get()) != 0) file_.reset();
  for (auto& [name, bytes] : kept) {
    if (file_) std::vector<uint8_t>().swap(*bytes);
    else buffers_[name].bytes.swap(*bytes);
  }
}

bool ReferenceImage::forEachChunk(const std::string& name,
                                  const std::function<void(size_t, const uint8_t*, size_t)>& f,
                                  std::string& error) const {
  const Buffer& b = buffers_.at(name);
  if (!b.bytes.empty() || b.size == 0) {
    for (size_t o = 0; o < b.size; o += kChunk) f(o, b.bytes.data() + o, std::min(kChunk, b.size - o));
    return true;
  }
  std::vector<uint8_t> chunk(std::min(kChunk, b.size));
  for (size_t o = 0; o < b.size; o += kChunk) {
    const size_t n = std::min(kChunk, b.size - o);
    if (std::fseek(file_.get(), static_cast<long>(b.offset + o), SEEK_SET) != 0 ||
        std::fread(chunk.data(), 1, n, file_.get()) != n) {
      error = "cannot read the reference run's buffer '" + name + "' back from its temporary file";
      return false;
    }
    f(o, chunk.data(), n);
  }
  return true;
}

}  // namespace simtlm::scenario

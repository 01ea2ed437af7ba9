// Buffer contents: typed numbers, the init / expected-value forms, and their generation.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "cli/scenario_parse.h"
#include "model/common/splitmix.h"

namespace simtlm::scenario {

const char* typeName(ElemType t) {
  switch (t) {
    case ElemType::U32: return "u32";
    case ElemType::S32: return "s32";
    case ElemType::F32: return "f32";
  }
  return "?";
}

ElemType parseType(const yaml::Value& v) {
  std::string s = v.str();
  if (s == "u32") return ElemType::U32;
  if (s == "s32") return ElemType::S32;
  if (s == "f32") return ElemType::F32;
  v.fail("unknown element type '" + s.substr(0, 20) + "' (known: u32, s32, f32)");
}

namespace {

constexpr int64_t kU32Max = 0xFFFFFFFFll;
constexpr int64_t kS32Min = -(int64_t{1} << 31), kS32Max = (int64_t{1} << 31) - 1;

bool inRange(int64_t v, ElemType t) {
  return t == ElemType::U32 ? (v >= 0 && v <= kU32Max) : (v >= kS32Min && v <= kS32Max);
}

}  // namespace

Number parseNumber(const yaml::Value& v, ElemType t) {
  Number n;
  if (t == ElemType::F32) {
    n.f = v.number();
    if (std::isfinite(n.f) && std::fabs(n.f) > std::numeric_limits<float>::max())
      v.fail(v.str() + " is outside the f32 range");
    return n;
  }
  if (!v.looksInteger() && v.isScalar())
    v.fail("expected an integer for a " + std::string(typeName(t)) + " buffer, found '" + v.str().substr(0, 40) + "'");
  n.i = t == ElemType::U32 ? v.integer(0, kU32Max) : v.integer(kS32Min, kS32Max);
  return n;
}

uint32_t toWord(const Number& n, ElemType t) {
  if (t != ElemType::F32) return static_cast<uint32_t>(n.i);
  float f = static_cast<float>(n.f);
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

std::string formatNumber(const Number& n, ElemType t) {
  if (t != ElemType::F32) return std::to_string(n.i);
  std::ostringstream s;
  s << n.f;
  return s.str();
}

std::string resolvePath(const std::string& path, const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).is_absolute() || dirs.empty()) return path;
  std::error_code ec;
  for (const auto& d : dirs) {
    fs::path p = fs::path(d) / path;
    if (fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  }
  return (fs::path(dirs[0]) / path).lexically_normal().string();
}

std::vector<uint32_t> readWordFile(const yaml::Value& v, const std::string& baseDir, std::string& resolved) {
  resolved = resolvePath(v.str(), {baseDir});
  std::error_code ec;
  if (std::filesystem::is_directory(resolved, ec)) v.fail("'" + resolved + "' is a folder, not a word file");
  if (!std::filesystem::is_regular_file(resolved, ec)) v.fail("cannot open '" + resolved + "'");
  auto size = std::filesystem::file_size(resolved, ec);
  if (ec) v.fail("cannot read '" + resolved + "'");
  if (size % 4 != 0) v.fail("'" + resolved + "' has " + std::to_string(size) + " bytes, not a whole number of 32-bit words");
  if (size == 0 || size / 4 > kMaxBufferWords)
    v.fail("'" + resolved + "' must hold 1 to " + std::to_string(kMaxBufferWords) + " words");
  std::ifstream in(resolved, std::ios::binary);
  std::vector<unsigned char> bytes(size);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
    v.fail("cannot read '" + resolved + "'");
  std::vector<uint32_t> words(size / 4);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = bytes[4 * i] | bytes[4 * i + 1] << 8 | bytes[4 * i + 2] << 16 | uint32_t{bytes[4 * i + 3]} << 24;
  return words;
}

Contents parseContents(const yaml::Value& v, ElemType t, const std::string& baseDir, bool allowList) {
  Contents c;
  c.type = t;
  c.where = v.where();
  c.path = v.path();
  const char* forms = allowList ? "zeros, a list, {constant: V}, {ramp: ...}, {random: ...} or {file: PATH}"
                                : "zeros, {constant: V}, {ramp: ...}, {random: ...} or {file: PATH}";
  if (v.isScalar()) {
    if (v.str() != "zeros") v.fail(std::string("expected ") + forms);
    return c;
  }
  if (v.isSequence()) {
    if (!allowList) v.fail(std::string("expected ") + forms);
    c.kind = Contents::Kind::Words;
    for (const auto& item : v.items()) {
      if (c.words.size() == kMaxBufferWords) item.fail("too many values");
      c.words.push_back(toWord(parseNumber(item, t), t));
    }
    if (c.words.empty()) v.fail("the list is empty");
    return c;
  }
  if (!v.isMap()) v.fail(std::string("expected ") + forms);
  yaml::Map m(v, {"constant", "ramp", "random", "file"});
  std::string form = m.oneOf({"constant", "ramp", "random", "file"});
  yaml::Value body = m.get(form);
  if (form == "constant") {
    c.kind = Contents::Kind::Constant;
    c.a = parseNumber(body, t);
  } else if (form == "ramp") {
    c.kind = Contents::Kind::Ramp;
    yaml::Map r(body, {"start", "step"});
    if (r.has("start")) c.a = parseNumber(r.get("start"), t);
    if (t == ElemType::F32) {
      c.b.f = r.has("step") ? parseNumber(r.get("step"), t).f : 1.0;
    } else {
      c.b.i = r.has("step") ? r.get("step").integer(-kU32Max, kU32Max) : 1;
    }
  } else if (form == "random") {
    c.kind = Contents::Kind::Random;
    yaml::Map r(body, {"seed", "min", "max"});
    c.seed = static_cast<uint64_t>(r.get("seed").integer(0, std::numeric_limits<int64_t>::max()));
    c.a = parseNumber(r.get("min"), t);
    c.b = parseNumber(r.get("max"), t);
    bool ordered = t == ElemType::F32 ? c.a.f <= c.b.f : c.a.i <= c.b.i;
    if (!ordered) r.get("max").fail("max is below min");
    if (t == ElemType::F32 && !(std::isfinite(c.a.f) && std::isfinite(c.b.f)))
      r.get("min").fail("min and max must be finite");
  } else {
    c.kind = Contents::Kind::Words;
    c.words = readWordFile(body, baseDir, c.file);
  }
  return c;
}

void checkFits(const Contents& c, size_t n) {
  if (c.kind == Contents::Kind::Words && c.words.size() != n) c.generate(n);  // throws
  if (c.kind == Contents::Kind::Ramp && c.type != ElemType::F32 && n > 0) {
    int64_t last = c.a.i + static_cast<int64_t>(n - 1) * c.b.i;  // a ramp is monotonic
    if (!inRange(last, c.type))
      yaml::fail(c.where, c.path + ": the ramp reaches " + std::to_string(last) + " at element " + std::to_string(n - 1) +
                              ", outside the " + typeName(c.type) + " range");
  }
}

std::vector<uint32_t> Contents::generate(size_t n) const {
  std::vector<uint32_t> out(n, 0);
  switch (kind) {
    case Kind::Zeros: break;
    case Kind::Constant:
      std::fill(out.begin(), out.end(), toWord(a, type));
      break;
    case Kind::Ramp:
      for (size_t i = 0; i < n; ++i) {
        Number v;
        if (type == ElemType::F32) {
          v.f = a.f + static_cast<double>(i) * b.f;
        } else {
          v.i = a.i + static_cast<int64_t>(i) * b.i;
          if (!inRange(v.i, type))
            yaml::fail(where, path + ": the ramp reaches " + std::to_string(v.i) + " at element " + std::to_string(i) +
                                  ", outside the " + typeName(type) + " range");
        }
        out[i] = toWord(v, type);
      }
      break;
    case Kind::Random:
      for (size_t i = 0; i < n; ++i) {
        uint64_t r = splitmixMix(seed + (i + 1) * 0x9E3779B97F4A7C15ull);
        Number v;
        if (type == ElemType::F32) {
          v.f = a.f + (b.f - a.f) * (static_cast<double>(r >> 11) * 0x1.0p-53);
        } else {
          v.i = a.i + static_cast<int64_t>(r % static_cast<uint64_t>(b.i - a.i + 1));
        }
        out[i] = toWord(v, type);
      }
      break;
    case Kind::Words:
      if (words.size() != n)
        yaml::fail(where, path + ": " + (file.empty() ? "the list" : "'" + file + "'") + " has " +
                              std::to_string(words.size()) + " words, the buffer " + std::to_string(n));
      out = words;
      break;
  }
  return out;
}

std::string Contents::describe() const {
  switch (kind) {
    case Kind::Zeros: return "zeros";
    case Kind::Constant: return "constant " + formatNumber(a, type);
    case Kind::Ramp: return "ramp from " + formatNumber(a, type) + " step " + formatNumber(b, type);
    case Kind::Random:
      return "random (seed " + std::to_string(seed) + ") in [" + formatNumber(a, type) + ", " + formatNumber(b, type) + "]";
    case Kind::Words: {
      if (!file.empty()) return "file " + file;
      if (words.size() > 4) return std::to_string(words.size()) + " listed values";
      std::string s;
      for (uint32_t w : words) {
        Number n;
        float f;
        std::memcpy(&f, &w, 4);
        n.i = type == ElemType::S32 ? static_cast<int32_t>(w) : static_cast<int64_t>(w);
        n.f = f;
        s += (s.empty() ? "[" : ", ") + formatNumber(n, type);
      }
      return s + "]";
    }
  }
  return "?";
}

}  // namespace simtlm::scenario

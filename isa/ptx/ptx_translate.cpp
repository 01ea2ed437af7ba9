// One PTX entry -> VCode (simtlm instructions over virtual registers) -> isa::Kernel.
// The opcode-by-opcode lowering lives in ptx_lower_ops.cpp; this file holds the entry-level
// work: registers, parameters, symbols, labels and the public API.
#include "isa/ptx/ptx_translate.h"

#include <algorithm>

#include "isa/diagnostics.h"
#include "isa/input_file.h"
#include "isa/ptx/ptx_lowering.h"

namespace simtlm::isa::ptx {

Lowering::Lowering(const Module& m, const Entry& e) : mod_(m), entry_(e), file_(m.file) {}

[[noreturn]] void Lowering::fail(SourcePos p, const std::string& msg) const {
  throw InputError(file_, p.line, p.col, msg);
}

int Lowering::newGpr() { return code_.numGpr++; }
int Lowering::newPred() { return code_.numPred++; }

const Lowering::VReg& Lowering::reg(const Operand& o) {
  auto it = regs_.find(o.name);
  if (it == regs_.end()) fail(o.pos, "register '" + o.name + "' is not declared");
  return it->second;
}

void Lowering::declareRegisters() {
  for (const auto& [name, decl] : entry_.regs) {
    VReg v;
    const std::string& t = decl.type;
    if (t == "pred") {
      v.pred = true;
      v.id = newPred();
      regs_[name] = v;
      continue;
    }
    v.id = newGpr();
    if (t == "f64") v.width = 0;  // any use is an error
    else if (t == "u64" || t == "s64" || t == "b64") v.width = 64;
    else if (t == "u16" || t == "s16" || t == "b16" || t == "f16" || t == "u8" || t == "s8" || t == "b8") v.width = 16;
    else v.width = 32;
    regs_[name] = v;
  }
}

void Lowering::declareParams() {
  uint32_t off = 0;
  for (const auto& p : entry_.params) {
    if (p.arrayBytes) unsupported(file_, p.pos, ".param .b8 " + p.name + "[" + std::to_string(p.arrayBytes) + "] (by-value struct or array parameter)");
    if (p.type == "f64") unsupported(file_, p.pos, ".param .f64");
    if (!(p.type == "u64" || p.type == "s64" || p.type == "b64" || p.type == "u32" || p.type == "s32" || p.type == "b32" || p.type == "f32"))
      unsupported(file_, p.pos, ".param ." + p.type);
    params_[p.name] = off;
    code_.params.push_back(ParamDecl{p.name, off});
    off += 4;
  }
}

// Shared and local symbols get offsets in their space, aligned as declared; the module's
// .const symbols become hidden parameters when the entry uses them (constBase()).
void Lowering::declareSymbols() {
  auto place = [&](const Symbol& s) {
    if (s.space == Space::Shared) {
      if (s.unsized) unsupported(file_, s.pos, ".extern .shared " + s.name + "[] (dynamic shared memory)");
      const uint32_t a = std::max<uint32_t>(4, s.align);
      code_.sharedBytes = (code_.sharedBytes + a - 1) / a * a;
      symbols_[s.name] = {Space::Shared, code_.sharedBytes, &s};
      code_.sharedBytes += (s.bytes + 3) / 4 * 4;
    } else if (s.space == Space::Local) {
      const uint32_t a = std::max<uint32_t>(4, s.align);
      code_.localBytes = (code_.localBytes + a - 1) / a * a;
      symbols_[s.name] = {Space::Local, code_.localBytes, &s};
      code_.localBytes += (s.bytes + 3) / 4 * 4;
    } else {
      symbols_[s.name] = {s.space, 0, &s};
    }
  };
  for (const auto& s : mod_.symbols) place(s);
  for (const auto& s : entry_.symbols) place(s);
  if (code_.sharedBytes > 1024 * 1024) fail(entry_.pos, "the kernel's shared memory (" + std::to_string(code_.sharedBytes) + " bytes) exceeds 1048576 bytes");
}

// The address of a .const symbol: a hidden parameter (after the declared ones) read once at
// the start of the kernel.
int Lowering::constBase(const std::string& name, SourcePos pos) {
  auto it = constRegs_.find(name);
  if (it != constRegs_.end()) return it->second;
  const auto& sym = symbols_.at(name);
  if (sym.decl->initialized)
    fail(pos, "__constant__ '" + name + "' has an initializer in the PTX; simtlm loads constant data from a buffer: declare it without one and bind it (constants: in a scenario)");
  const int r = newGpr();
  constRegs_[name] = r;
  const uint32_t off = static_cast<uint32_t>(code_.params.size() * 4);
  code_.params.push_back(ParamDecl{name, off});
  constSymbols_.push_back(name);
  ++code_.constantParams;
  VInstr ld;
  ld.op = Op::LD_PARAM;
  ld.d = r;
  ld.off = static_cast<int32_t>(off);
  ld.line = pos.line;
  prologue_.push_back(ld);
  return r;
}

VCode Lowering::run(TranslationInfo* info) {
  declareRegisters();
  declareParams();
  declareSymbols();
  // Label positions refer to PTX statements; remember where each statement starts in VCode.
  std::vector<size_t> stmtStart(entry_.body.size() + 1, 0);
  for (size_t i = 0; i < entry_.body.size(); ++i) {
    stmtStart[i] = body_.size();
    lowerStatement(entry_.body[i]);
  }
  stmtStart[entry_.body.size()] = body_.size();
  if (body_.empty() || entry_.body.empty()) fail(entry_.pos, "kernel '" + entry_.name + "' has no instructions");
  // Falling off the end of a kernel is `ret` in PTX.
  const VInstr& last = body_.back();
  if (!(last.op == Op::EXIT && last.guard == kNoReg) && !(last.op == Op::BRA && last.guard == kNoReg)) {
    VInstr ex;
    ex.op = Op::EXIT;
    ex.line = last.line;
    body_.push_back(ex);
  }
  const size_t shift = prologue_.size();
  code_.instrs = prologue_;
  code_.instrs.insert(code_.instrs.end(), body_.begin(), body_.end());
  std::map<std::string, size_t> labelAt;
  for (const auto& [label, stmt] : entry_.labels) {
    labelAt[label] = stmtStart[stmt] + shift;
    if (labelAt[label] < code_.instrs.size()) code_.labels.emplace_back(labelAt[label], label);
  }
  for (auto& in : code_.instrs) {
    if (in.op != Op::BRA) continue;
    auto it = labelAt.find(in.label);
    if (it == labelAt.end()) fail(SourcePos{in.line, 1}, "branch to undefined label '" + in.label + "'");
    if (it->second >= code_.instrs.size()) fail(SourcePos{in.line, 1}, "branch to '" + in.label + "' past the last instruction");
    in.target = static_cast<int>(it->second);
  }
  code_.ptxInstructions = static_cast<int>(entry_.body.size());
  if (info) {
    info->ptxInstructions = code_.ptxInstructions;
    info->virtualRegs = code_.numGpr + code_.numPred;
    info->constSymbols = constSymbols_;
  }
  return std::move(code_);
}

std::vector<std::string> entryNames(const Module& m) {
  std::vector<std::string> out;
  for (const auto& e : m.entries) out.push_back(e.name);
  return out;
}

Kernel translate(const Module& m, const std::string& name, TranslationInfo* info) {
  const Entry* e = nullptr;
  for (const auto& x : m.entries)
    if (x.name == name) e = &x;
  if (!e) {
    std::string all;
    for (const auto& n : entryNames(m)) all += (all.empty() ? "" : ", ") + n;
    throw InputError(m.file, 0, 0, "no kernel '" + name + "' in the PTX module (its kernels: " + (all.empty() ? "none" : all) + ")");
  }
  VCode code = Lowering(m, *e).run(info);
  int spilled = 0;
  Kernel k = allocate(std::move(code), e->name, m.file, &spilled);
  if (info) info->spilledRegs = spilled;
  return k;
}

Kernel loadPtxFile(const std::string& path, const std::string& entry, TranslationInfo* info) {
  const Module m = parseModule(readInputFile(path, "PTX file"), path);
  std::string name = entry;
  if (name.empty()) {
    if (m.entries.size() != 1) {
      std::string all;
      for (const auto& n : entryNames(m)) all += (all.empty() ? "" : ", ") + n;
      throw InputError(path, 0, 0, m.entries.empty() ? "the PTX module has no kernel (.entry)"
                                                     : "the PTX module has several kernels (" + all + "): name one (entry:, --entry)");
    }
    name = m.entries[0].name;
  }
  return translate(m, name, info);
}

bool isPtxPath(const std::string& path) { return path.size() > 4 && path.compare(path.size() - 4, 4, ".ptx") == 0; }

}  // namespace simtlm::isa::ptx

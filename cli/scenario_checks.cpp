// Loading the `checks:` of a scenario.
#include <algorithm>

#include "cli/emulate.h"
#include "cli/scenario_parse.h"

namespace simtlm::scenario {

std::vector<std::string> interpreterStatNames() {
  isa::LimitStudyResult limit;
  std::vector<std::string> names;
  nlohmann::json stats = cli::statsJson(isa::ExecCounts{}, &limit);
  for (auto it = stats.begin(); it != stats.end(); ++it) names.push_back(it.key());
  return names;
}

std::string Check::describe() const {
  switch (kind) {
    case Kind::Verify: return "verify: workload";
    case Kind::BufferEquals: return "buffer " + buffer + " equals " + expected.describe();
    case Kind::BufferInterpreter:
      return buffer == "*" ? "every buffer equals the functional interpreter's"
                           : "buffer " + buffer + " equals the functional interpreter's";
    case Kind::Stat: {
      std::string v = std::to_string(value);
      if (value == static_cast<double>(static_cast<int64_t>(value))) v = std::to_string(static_cast<int64_t>(value));
      return "stat " + stat + " " + op + " " + v;
    }
    case Kind::ExpectError: return "expect_error: \"" + text + "\"";
    case Kind::Conservation: return "issued plus removed warp instructions equal the interpreter's";
  }
  return "?";
}

namespace {

void parseStat(const yaml::Map& m, Check& c) {
  yaml::Value sv = m.get("stat");
  c.stat = sv.name();
  bool interp = c.stat.rfind("interp.", 0) == 0 || c.stat.rfind("limit.", 0) == 0;
  auto names = interpreterStatNames();
  if (interp && std::find(names.begin(), names.end(), c.stat) == names.end()) {
    std::string best = yaml::nearest(c.stat, names);
    sv.fail("unknown statistic '" + c.stat + "'" + (best.empty() ? " (docs/cli.md lists them)" : "; did you mean '" + best + "'?"));
  }
  yaml::Value ov = m.get("op");
  c.op = ov.str();
  const std::vector<std::string> ops = {"==", "!=", "<", "<=", ">", ">="};
  if (std::find(ops.begin(), ops.end(), c.op) == ops.end())
    ov.fail("unknown comparison '" + c.op.substr(0, 20) + "' (known: " + yaml::listNames(ops) + ")");
  c.value = m.get("value").number();
}

void parseBufferCheck(const yaml::Map& m, Check& c, const Scenario& s, const std::string& baseDir) {
  yaml::Value bv = m.get("buffer");
  c.buffer = bv.name();
  const Buffer* b = s.findBuffer(c.buffer);
  bool workloadBuffers = std::any_of(s.launches.begin(), s.launches.end(), [](const Launch& l) { return l.workload; });
  if (!b && !workloadBuffers) {
    std::vector<std::string> names;
    for (const auto& x : s.buffers) names.push_back(x.name);
    bv.fail("no buffer named '" + c.buffer + "'" + (names.empty() ? "" : " (buffers: " + yaml::listNames(names) + ")"));
  }
  ElemType type = b ? b->type : ElemType::U32;
  if (auto t = m.opt("type")) {
    if (b) t->fail("the type of buffer '" + c.buffer + "' is set where it is declared");
    type = parseType(*t);
  }
  std::string form = m.oneOf({"equals", "expect_file", "equals_interpreter"});
  yaml::Value fv = m.get(form);
  if (form == "equals") {
    c.kind = Check::Kind::BufferEquals;
    c.expected = parseContents(fv, type, baseDir, true);
  } else if (form == "expect_file") {
    c.kind = Check::Kind::BufferEquals;
    c.expected.type = type;
    c.expected.kind = Contents::Kind::Words;
    c.expected.where = fv.where();
    c.expected.path = fv.path();
    c.expected.words = readWordFile(fv, baseDir, c.expected.file);
  } else {
    c.kind = Check::Kind::BufferInterpreter;
    if (!fv.boolean()) fv.fail("write true, or leave the check out");
  }
  if (b && c.kind == Check::Kind::BufferEquals) checkFits(c.expected, b->words);
}

}  // namespace

Check parseCheck(const yaml::Value& v, const Scenario& s, const std::string& baseDir) {
  Check c;
  c.where = v.where();
  yaml::Map any(v, {});
  std::string kind = any.oneOf({"verify", "buffer", "stat", "expect_error"});
  if (kind == "verify") {
    yaml::Map m(v, {"verify"});
    yaml::Value w = m.get("verify");
    if (w.str() != "workload") w.fail("expected 'workload' (the workload's own C++ reference)");
    if (std::none_of(s.launches.begin(), s.launches.end(), [](const Launch& l) { return l.workload; }))
      w.fail("no launch runs a workload to verify");
    c.kind = Check::Kind::Verify;
  } else if (kind == "buffer") {
    parseBufferCheck(yaml::Map(v, {"buffer", "type", "equals", "expect_file", "equals_interpreter"}), c, s, baseDir);
  } else if (kind == "stat") {
    c.kind = Check::Kind::Stat;
    parseStat(yaml::Map(v, {"stat", "op", "value"}), c);
  } else {
    yaml::Map m(v, {"expect_error"});
    c.kind = Check::Kind::ExpectError;
    c.text = m.get("expect_error").str();
    if (c.text.empty()) m.get("expect_error").fail("give the text the error message must contain");
  }
  return c;
}

}  // namespace simtlm::scenario

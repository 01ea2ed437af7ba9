#include "model/energy/table.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "isa/diagnostics.h"
#include "model/common/yaml_reader.h"
#include "model/energy/catalogue.h"

namespace simtlm::energy {
namespace {

std::vector<std::string> componentNames() {
  std::vector<std::string> n;
  for (const auto& c : catalogue()) n.push_back(c.name);
  return n;
}

std::vector<std::string> entryNames(const ComponentSpec& c) {
  std::vector<std::string> n;
  for (const auto& e : c.events) n.push_back(e.name);
  n.push_back("static");
  return n;
}

// `{UNIT: number, source: "text"}`: a number with the unit's key and a non-empty source.
Sourced sourced(const yaml::Value& v, const std::string& unit, double lo, double hi) {
  if (v.isScalar()) v.fail("expected {" + unit + ": NUMBER, source: \"where the number comes from\"}");
  yaml::Map m(v, {unit, "source"});
  for (const auto& key : {unit, std::string("source")})
    if (!m.has(key)) v.fail("missing '" + key + "' (every number is {" + unit + ": NUMBER, source: \"where it comes from\"})");
  Sourced s;
  const yaml::Value num = m.get(unit);
  s.value = num.number();
  if (!std::isfinite(s.value)) num.fail("expected a finite number");
  if (s.value < 0) num.fail("must not be negative (found " + num.str() + ")");
  if (s.value < lo || s.value > hi) {
    std::ostringstream r;
    r << num.str() << " is outside [" << lo << ", " << hi << "]";
    num.fail(r.str());
  }
  const yaml::Value src = m.get("source");
  s.source = src.str();
  if (s.source.find_first_not_of(" \t") == std::string::npos) src.fail("the source must say where the number comes from");
  return s;
}

ComponentEntry component(const yaml::Value& v, const ComponentSpec& spec) {
  const std::vector<std::string> names = entryNames(spec);
  yaml::Map m(v, names);
  ComponentEntry e;
  for (const auto& ev : spec.events) {
    auto it = m.opt(ev.name);
    if (!it) v.fail("missing entry '" + ev.name + "' (" + spec.name + " needs " + yaml::listNames(names) + ")");
    e.events.push_back(sourced(*it, "pj", 0, 1e9));
  }
  auto st = m.opt("static");
  if (!st) v.fail("missing entry 'static' (" + spec.name + " needs " + yaml::listNames(names) + ")");
  e.staticMw = sourced(*st, "mw", 0, 1e9);
  return e;
}

}  // namespace

EnergyTable parseTable(const std::string& text, const std::string& fileName) {
  const yaml::Value doc = yaml::parseDocument(text, fileName);
  if (doc.isNull()) doc.fail("empty energy table (docs/energy.md describes the format)");
  yaml::Map top(doc, {"name", "description", "technology", "gated_sm_leakage", "components"});
  EnergyTable t;
  t.file = fileName;
  t.name = top.has("name") ? top.get("name").name() : std::filesystem::path(fileName).stem().string();  // a name, not a read
  if (top.has("description")) t.description = top.get("description").str();

  auto need = [&](const yaml::Map& m, const std::string& key) {
    if (!m.has(key)) m.value().fail("missing entry '" + key + "'");
    return m.get(key);
  };
  yaml::Map tech(need(top, "technology"), {"node", "voltage", "clock"});
  t.nodeNm = sourced(need(tech, "node"), "nm", 1, 1000);
  t.voltageV = sourced(need(tech, "voltage"), "v", 0.1, 5);
  t.clockMhz = sourced(need(tech, "clock"), "mhz", 1, 100000);
  t.gatedSmLeakage = sourced(need(top, "gated_sm_leakage"), "fraction", 0, 1);

  const std::vector<std::string> names = componentNames();
  const yaml::Value comps = need(top, "components");
  yaml::Map cm(comps, names);  // an unknown component is an error (with a suggestion)
  for (const auto& spec : catalogue()) {
    auto v = cm.opt(spec.name);
    if (!v) comps.fail("missing entry '" + spec.name + "' (every component needs one: " + yaml::listNames(names) + ")");
    t.components.push_back(component(*v, spec));
  }
  return t;
}

}  // namespace simtlm::energy

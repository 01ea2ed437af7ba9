// Input errors never echo raw bytes (found by the fuzz targets of fuzz/): a control character,
// DEL or a byte that is not valid UTF-8 in an input is written as \xNN wherever a message
// quotes it, so that every error stays one line of text on a terminal. Valid UTF-8 is kept.
#include <gtest/gtest.h>

#include "cli/config_loader.h"
#include "cli/scenario.h"
#include "isa/diagnostics.h"
#include "model/energy/table.h"

using namespace simtlm;

namespace {

template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ErrorText, InputErrorEscapesWhatIsNotText) {
  InputError e("a.s", 2, 3, "unknown 'x\ny\x1b\x7f\xff\xc3' and 'µs'");
  EXPECT_STREQ(e.what(), "a.s:2:3: error: unknown 'x\\x0ay\\x1b\\x7f\\xff\\xc3' and 'µs'");
  EXPECT_EQ(e.message(), "unknown 'x\\x0ay\\x1b\\x7f\\xff\\xc3' and 'µs'");
}

TEST(ErrorText, ConfigurationKeysAndValues) {
  config::ConfigLoader l;
  EXPECT_EQ(errorOf([&] { l.loadText("[gpu]\nnum_sms = 1\x1b[2J\n", "c.ini"); }),
            "c.ini:2:1: error: gpu.num_sms = '1\\x1b[2J': not an integer");
  EXPECT_EQ(errorOf([&] { l.set("gpu.n\rum=1"); }),
            "--set 'gpu.n\\x0dum=1': unknown parameter 'gpu.n\\x0dum' (simtlm params lists them all)");
}

TEST(ErrorText, YamlKeysAndValues) {
  const std::string yamlKey = errorOf([] { scenario::loadScenarioText("\"na\\nme\": x\n", "s.yaml", "."); });
  EXPECT_EQ(yamlKey.rfind("s.yaml:1:1: error: unknown key 'na\\x0ame'; did you mean 'name'? (known: name, ", 0), 0u) << yamlKey;
  EXPECT_EQ(yamlKey.find('\n'), std::string::npos) << yamlKey;
  EXPECT_EQ(errorOf([] { energy::parseTable("name: \"a\\u0001b\"\n", "t.yaml"); }),
            "t.yaml:1:7: error: name: expected a name ([A-Za-z_][A-Za-z0-9_.-]*, at most 64 characters), "
            "found 'a\\x01b'");
}

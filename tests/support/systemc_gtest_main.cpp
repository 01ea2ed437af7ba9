// main() for SystemC test executables. libsystemc also defines main() (which calls sc_main); an
// executable's own main takes precedence, so GoogleTest runs and each test elaborates its model
// and calls sc_start itself. sc_main only satisfies libsystemc's reference and never runs.
#include <gtest/gtest.h>

extern "C" int sc_main(int, char**) { return 1; }

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

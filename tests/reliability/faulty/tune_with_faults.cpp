// tune_with_faults: the real `tune` command line with the deliberately faulty kernel family
// (faulty.cuh) registered, so that `--families faulty` puts crashing, hanging and wrong
// candidates through the real compile workers and measuring process. For the reliability tests.
#include "family_registry.hpp"
#include "faulty_family.hpp"
#include "tune_command.hpp"

int main(int argc, char** argv) {
  gemmtune::register_family(gemmtune::testing::faulty_family());
  return gemmtune::tune_main(argc, argv);
}

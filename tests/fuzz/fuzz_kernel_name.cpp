// gemmtune::parse_kernel_name, the key of the database and of NVRTC instantiations (names come
// from databases and from kernelc's command line): any input either parses to a configuration
// whose kernel_name is exactly the input, or is refused with std::invalid_argument; the family's
// check() and instantiation() then run on whatever parsed without crashing or overflowing.
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

#include "family_registry.hpp"
#include "fuzz_invariant.hpp"
#include "kernel_config.hpp"
#include "kernel_name.hpp"

using gemmtune::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text = gemmtune::fuzz::as_text(data, size);
  gemmtune::KernelConfig config;
  try {
    config = gemmtune::parse_kernel_name(text);
  } catch (const std::invalid_argument&) {
    return 0;
  } catch (const std::exception& error) {
    gemmtune::fuzz::invariant_broken("an undocumented exception: " + std::string(error.what()), text);
  }
  require(gemmtune::kernel_name(config) == text, "kernel_name(parse_kernel_name(n)) == n", text);
  const gemmtune::KernelFamily& family = gemmtune::find_family(config.family);
  require(config.params.size() == family.params().size(), "one value per parameter", text);
  for (std::size_t i = 0; i < config.params.size(); ++i) {
    require(config.params[i].first == family.params()[i].name, "parameters in the family's order", text);
    require(config.params[i].second > 0, "parameter values are positive", text);
  }
  require(config.align > 0, "align is positive", text);
  try {
    (void)family.check(config);  // legal or not, it says so without undefined behaviour
    require(family.instantiation(config).starts_with(std::string(family.kernel_template()) + '<'),
            "the instantiation names the family's template", text);
  } catch (const std::exception& error) {
    gemmtune::fuzz::invariant_broken("check() or instantiation() threw: " + std::string(error.what()), text);
  }
  return 0;
}

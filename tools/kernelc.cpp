// kernelc: compiles kernel configurations, given by name, with NVRTC and prints ptxas's resource
// report (registers, static shared memory, spills) and the dynamic shared memory the launch asks
// for; optionally writes each cubin (for cuobjdump -sass).
// Needs no GPU.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "arch_name.hpp"
#include "exit_codes.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "log_options.hpp"
#include "nvrtc_compiler.hpp"
#include "output_file.hpp"

namespace gemmtune {
namespace {

// The names to compile: those given, then with --defaults the default of every family that runs
// on `arch`. Throws BadInput for an arch NVRTC does not know, a name that does not parse, a
// configuration its family refuses or whose family does not run on `arch`, or no name at all.
std::vector<std::string> names_to_compile(std::vector<std::string> names, const std::string& arch, bool defaults) {
  try {
    require_supported_arch(arch);  // canonical_arch's key
    if (defaults) {
      for (const KernelFamily* family : all_families()) {
        if (!family->compile_arch(arch)) continue;  // wgmma off Hopper
        const auto layouts = {Layout::NN, Layout::NT, Layout::TN, Layout::TT};  // nn where served
        const auto served = std::find_if(layouts.begin(), layouts.end(),
                                         [&](Layout layout) { return family->supports_layout(layout); });
        if (served != layouts.end()) {
          names.push_back(kernel_name(family->default_config(*served, family->alignments().front())));
        }
      }
    }
    for (const std::string& name : names) {  // refuse bad names and illegal configurations before compiling
      const KernelConfig config = parse_kernel_name(name);
      const KernelFamily& family = find_family(config.family);
      if (auto reason = family.check(config)) throw BadInput(name + ": " + *reason);
      if (!family.compile_arch(arch)) {
        throw BadInput(name + ": kernel family '" + config.family + "' does not run on " + arch + " GPUs");
      }
    }
  } catch (const std::invalid_argument& error) {
    throw BadInput(error.what());
  }
  if (names.empty()) throw BadInput("no configuration given: name one, or pass --defaults");
  return names;
}

// Compiles one configuration and prints its resources; throws what compile_kernel throws.
void compile_one(const std::string& name, const std::string& arch, bool show_log, const std::string& out_dir) {
  spdlog::debug("{}: compiling for {} with {}", name, arch, nvrtc_compile_options());
  const auto started = std::chrono::steady_clock::now();
  const KernelConfig config = parse_kernel_name(name);
  const CompiledKernel compiled = compile_kernel(config, arch);
  // Set at launch, not in the cubin: ptxas cannot report it. It depends on the configuration only.
  const std::size_t dynamic_smem = find_family(config.family).dynamic_smem_bytes(config);
  spdlog::debug("{}: compiled in {:.0f} ms: {}", name,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count(),
                compiled.instantiation);
  std::cout << name << ": " << to_string(compiled.resources) << ", " << dynamic_smem << " B dynamic smem, cubin "
            << compiled.cubin.size() << " B\n";
  if (show_log) std::cout << compiled.log << "\n";
  if (!out_dir.empty()) {
    const std::string path = out_dir + "/" + name + ".cubin";
    OutputFile file(path);
    file.stream().write(compiled.cubin.data(), static_cast<std::streamsize>(compiled.cubin.size()));
    file.commit();
    spdlog::debug("{}: wrote {}", name, path);
  }
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  keep_ptxas_reports();  // it prints ptxas's report of every kernel
  std::vector<std::string> names;
  std::string arch = "sm_90";
  std::string out_dir;
  bool show_log = false, defaults = false;
  LogOptions log_options;
  CLI::App app{"kernelc: compiles kernel configurations (by name) with NVRTC and reports their resources.\n"
               "Needs no GPU. Results go to standard output, logs and errors to standard error.\n" +
               exit_codes_help("flags, a name that does not parse or that its family refuses, an arch NVRTC "
                               "does not know",
                               "a configuration failed to compile, or its cubin to be written")};
  prefix_parse_errors(app, "kernelc");
  app.add_option("names", names, "Kernel names, e.g. gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1");
  app.add_option("--arch", arch, "Target arch: sm_90 (also sm_90a, compute_90, 9.0 or 90)")->capture_default_str();
  app.add_option("--out", out_dir, "Write <name>.cubin files into this existing directory")->check(CLI::ExistingDirectory);
  app.add_flag("--log", show_log, "Print NVRTC's whole log");
  app.add_flag("--defaults", defaults, "Also compile every family's default configuration (layout nn)");
  add_log_options(app, log_options);
  return parse_and_run(app, argc, argv, "kernelc", log_options, [&] {
    try {
      arch = canonical_arch(arch);
    } catch (const std::invalid_argument& error) {
      throw BadInput("--arch: " + std::string(error.what()));
    }
    names = names_to_compile(std::move(names), arch, defaults);  // BadInput: exit 2, nothing compiled
    int failures = 0;
    for (const std::string& name : names) {
      try {
        compile_one(name, arch, show_log, out_dir);
      } catch (const std::exception& error) {  // the others are still compiled
        ++failures;
        spdlog::error("{}: {}", name, error.what());
      }
    }
    return failures == 0 ? kExitDone : kExitFailure;
  });
}

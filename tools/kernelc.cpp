// kernelc: compiles kernel configurations, given by name, with NVRTC and prints ptxas's resource
// report (registers, shared memory, spills); optionally writes each cubin (for cuobjdump -sass).
// Needs no GPU.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "kernel_family.hpp"
#include "nvrtc_compiler.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> names;
  std::string arch = "sm_90";
  std::string out_dir;
  bool show_log = false, list_defaults = false;
  CLI::App app{"kernelc: compiles kernel configurations (by name) with NVRTC and reports their resources.\n"
               "Exit code: 0 all compiled, 1 a configuration failed to compile, 2 bad arguments."};
  app.add_option("names", names, "Kernel names, e.g. gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1");
  app.add_option("--arch", arch, "Target arch")->capture_default_str();
  app.add_option("--out", out_dir, "Write <name>.cubin files into this existing directory")->check(CLI::ExistingDirectory);
  app.add_flag("--log", show_log, "Print NVRTC's whole log");
  app.add_flag("--defaults", list_defaults, "Also compile every family's default configuration (layout nn)");
  CLI11_PARSE(app, argc, argv);
  try {
    gemmtune::require_supported_arch(arch);
    if (list_defaults) {
      for (const gemmtune::KernelFamily* family : gemmtune::all_families()) {
        names.push_back(gemmtune::kernel_name(family->default_config(gemmtune::Layout::NN, family->alignments().front())));
      }
    }
    for (const std::string& name : names) gemmtune::parse_kernel_name(name);  // refuse bad names before compiling
  } catch (const std::invalid_argument& error) {
    std::cerr << "kernelc: " << error.what() << '\n';
    return 2;
  }
  int failures = 0;
  for (const std::string& name : names) {
    try {
      const gemmtune::CompiledKernel compiled = gemmtune::compile_kernel(gemmtune::parse_kernel_name(name), arch);
      const gemmtune::ResourceUsage& r = compiled.resources;
      std::cout << name << ": " << r.registers << " registers, " << r.static_smem_bytes << " B static smem, "
                << r.stack_frame_bytes << " B stack, " << r.spill_store_bytes << "/" << r.spill_load_bytes
                << " B spill stores/loads, cubin " << compiled.cubin.size() << " B\n";
      if (show_log) std::cout << compiled.log << "\n";
      if (!out_dir.empty()) {
        std::ofstream file(out_dir + "/" + name + ".cubin", std::ios::binary);
        file.write(compiled.cubin.data(), static_cast<std::streamsize>(compiled.cubin.size()));
        if (!file) throw std::runtime_error("could not write " + out_dir + "/" + name + ".cubin");
      }
    } catch (const std::exception& error) {
      ++failures;
      std::cerr << "kernelc: " << name << ": " << error.what() << '\n';
    }
  }
  return failures == 0 ? 0 : 1;
}

// Where a cubin's compile time goes, and what NVRTC options do to it. Compiles the given
// configurations (default: every default family's default configuration) in this one process,
// once a variant of the options, and prints the wall time a cubin and NVRTC's own phase times
// (--time: front end, optimiser, ptxas), summed over the configurations. No GPU needed.
//
//   compile_phases [--arch sm_90] [--repeat N] [--variant "OPTIONS"]... [NAME...]
//
// Each --variant is a space-separated list of extra NVRTC options (the empty variant, today's
// options, always runs first), e.g. --variant "--minimal" --variant "--pch". --batch also
// compiles each family's configurations as one NVRTC program with one name expression each
// (one front end and one ptxas pass for all), the alternative to a program a cubin.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

#include <nvrtc.h>

#include "exit_codes.hpp"
#include "family_registry.hpp"
#include "kernel_sources.hpp"
#include "log_options.hpp"
#include "numeric_options.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune {
namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// NVRTC's --time CSV: a header line, then "phase name, metric, milliseconds, ..." rows; sums
// the milliseconds of each phase.
void add_phase_times(const std::string& path, std::map<std::string, double>& totals) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() < 3) continue;
    try {
      totals[cells[1]] += std::stod(cells[2]);
    } catch (const std::exception&) {
      // a row without a number: not a phase
    }
  }
}

void check(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS) throw Error(std::string(call) + ": " + nvrtcGetErrorString(result));
}

// Compiles `configs` (one family) as one program with a name expression each; returns the wall
// seconds and adds NVRTC's phase times to `phases`.
double compile_batch(const std::vector<KernelConfig>& configs, const std::string& arch, const std::string& csv,
                     std::map<std::string, double>& phases) {
  const KernelFamily& family = find_family(configs.front().family);
  const std::string source = "#include \"" + std::string(family.source_file()) + "\"\n";
  std::vector<const char*> names, texts;
  for (const EmbeddedFile& file : embedded_kernel_files()) {
    names.push_back(file.name.data());
    texts.push_back(file.text.data());
  }
  const auto start = std::chrono::steady_clock::now();
  nvrtcProgram program = nullptr;
  check(nvrtcCreateProgram(&program, source.c_str(), "batch.cu", static_cast<int>(texts.size()), texts.data(),
                           names.data()),
        "nvrtcCreateProgram");
  std::vector<std::string> instantiations;
  for (const KernelConfig& config : configs) instantiations.push_back(family.instantiation(config));
  for (const std::string& name : instantiations) {
    check(nvrtcAddNameExpression(program, name.c_str()), "nvrtcAddNameExpression");
  }
  const std::string target = "--gpu-architecture=" + *family.compile_arch(arch);
  const std::string time = "--time=" + csv;
  std::vector<const char*> options{"-std=c++17", "--ptxas-options=-v", target.c_str(), time.c_str()};
  std::remove(csv.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::size_t size = 0;
  if (compiled == NVRTC_SUCCESS) check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
  nvrtcDestroyProgram(&program);
  check(compiled, "nvrtcCompileProgram");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  add_phase_times(csv, phases);
  return seconds;
}

struct Options {
  std::string arch = "sm_90";
  int repeat = 1;
  bool batch = false;
  std::vector<std::string> variants, names;
};

// One variant's compiles of `configs`, `repeat` times: the wall time a cubin and NVRTC's phases.
void time_variant(const std::vector<KernelConfig>& configs, const Options& options, const std::string& variant,
                  const std::string& csv) {
  std::map<std::string, double> phases;
  double wall = 0;
  int compiled = 0;
  for (int r = 0; r < options.repeat; ++r) {
    for (const KernelConfig& config : configs) {
      std::vector<std::string> extra = split_words(variant);
      extra.push_back("--time=" + csv);
      std::remove(csv.c_str());
      const auto start = std::chrono::steady_clock::now();
      const CompiledKernel kernel = compile_kernel(config, options.arch, extra);  // throws: exit 3
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (r == 0 && variant.empty()) std::cout << kernel.kernel_name << ": " << to_string(kernel.resources) << '\n';
      ++compiled;
      add_phase_times(csv, phases);
    }
  }
  std::printf("variant [%s]: %d cubins, %.3f s a cubin (%.2f cubins/s in one process)\n", variant.c_str(), compiled,
              wall / compiled, compiled / wall);
  for (const auto& [phase, ms] : phases) std::printf("  %-40s %9.1f ms a cubin\n", phase.c_str(), ms / compiled);
}

int run(Options options) {
  std::vector<KernelConfig> configs;
  try {
    if (options.names.empty()) {
      for (const KernelFamily* family : all_families()) {
        if (!family->tuned_by_default() || !family->compile_arch(options.arch)) continue;
        configs.push_back(family->default_config(Layout::NN, family->alignments().front()));
      }
    }
    for (const std::string& name : options.names) configs.push_back(parse_kernel_name(name));
  } catch (const std::exception& error) {
    throw BadInput(error.what());
  }
  options.variants.insert(options.variants.begin(), "");
  const std::string csv = "/tmp/compile_phases." + std::to_string(::getpid()) + ".csv";
  for (const std::string& variant : options.variants) time_variant(configs, options, variant, csv);
  if (options.batch) {
    std::map<std::string, std::vector<KernelConfig>> by_family;
    for (const KernelConfig& config : configs) by_family[config.family].push_back(config);
    std::map<std::string, double> phases;
    double wall = 0;
    for (int r = 0; r < options.repeat; ++r) {
      for (const auto& [family, members] : by_family) wall += compile_batch(members, options.arch, csv, phases);
    }
    const int compiled = options.repeat * static_cast<int>(configs.size());
    std::printf("batch (a program a family): %d kernels, %.3f s a kernel (%.2f kernels/s in one process)\n", compiled,
                wall / compiled, compiled / wall);
    for (const auto& [phase, ms] : phases) std::printf("  %-40s %9.1f ms a kernel\n", phase.c_str(), ms / compiled);
  }
  std::remove(csv.c_str());
  return kExitDone;
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  keep_ptxas_reports();
  Options options;
  LogOptions log_options;
  CLI::App app{"compile_phases: where NVRTC's time goes for a few configurations (its --time phases), under\n"
               "option variants, in this one process; no GPU needed.\n" +
               exit_codes_help("flags, a kernel name", "a configuration failed to compile")};
  prefix_parse_errors(app, "compile_phases");
  app.add_option("--arch", options.arch, "Arch to compile for")->capture_default_str();
  app.add_option("--repeat", options.repeat, "Compiles of each configuration a variant")
      ->capture_default_str()
      ->check(whole_number(1, 1000));
  app.add_option("--variant", options.variants, "Extra NVRTC options, space-separated (repeatable)")
      ->allow_extra_args(false);
  app.add_flag("--batch", options.batch, "Also compile each family's configurations as one program");
  app.add_option("names", options.names, "Kernel names (default: every default family's default)");
  add_log_options(app, log_options);
  return parse_and_run(app, argc, argv, "compile_phases", log_options, [&] { return run(options); });
}

// Where a cubin's compile time goes, and what NVRTC options do to it. Compiles the given
// configurations (default: every default family's default configuration) in this one process,
// once a variant of the options, and prints the wall time a cubin and NVRTC's own phase times
// (--time: front end, optimiser, ptxas), summed over the configurations. No GPU needed.
//
//   compile_phases [--arch sm_90] [--repeat N] [--variant "OPTIONS"]... [NAME...]
//
// Each --variant is a space-separated list of extra NVRTC options (the empty variant, today's
// options, always runs first), e.g. --variant "--minimal" --variant "--pch".
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"

using namespace gemmtune;

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

}  // namespace

int main(int argc, char** argv) {
  keep_ptxas_reports();
  std::string arch = "sm_90";
  int repeat = 1;
  std::vector<std::string> variants, names;
  CLI::App app{"compile_phases: where NVRTC's time goes for a few configurations, under option variants"};
  app.add_option("--arch", arch, "Arch to compile for")->capture_default_str();
  app.add_option("--repeat", repeat, "Compiles of each configuration a variant")->capture_default_str();
  app.add_option("--variant", variants, "Extra NVRTC options, space-separated (repeatable)");
  app.add_option("names", names, "Kernel names (default: every default family's default)");
  CLI11_PARSE(app, argc, argv);
  std::vector<KernelConfig> configs;
  try {
    if (names.empty()) {
      for (const KernelFamily* family : all_families()) {
        if (!family->tuned_by_default() || !family->compile_arch(arch)) continue;
        configs.push_back(family->default_config(Layout::NN, family->alignments().front()));
      }
    }
    for (const std::string& name : names) configs.push_back(parse_kernel_name(name));
  } catch (const std::exception& error) {
    std::cerr << "compile_phases: " << error.what() << '\n';
    return 2;
  }
  variants.insert(variants.begin(), "");
  const std::string csv = "/tmp/compile_phases." + std::to_string(::getpid()) + ".csv";
  for (const std::string& variant : variants) {
    std::map<std::string, double> phases;
    double wall = 0;
    int compiled = 0;
    for (int r = 0; r < repeat; ++r) {
      for (const KernelConfig& config : configs) {
        std::vector<std::string> options = split_words(variant);
        options.push_back("--time=" + csv);
        std::remove(csv.c_str());
        const auto start = std::chrono::steady_clock::now();
        try {
          const CompiledKernel kernel = compile_kernel(config, arch, options);
          if (r == 0 && variant.empty()) std::cout << kernel.kernel_name << ": " << to_string(kernel.resources) << '\n';
          ++compiled;
        } catch (const std::exception& error) {
          std::cerr << "compile_phases: " << kernel_name(config) << " [" << variant << "]: " << error.what() << '\n';
          return 3;
        }
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        add_phase_times(csv, phases);
      }
    }
    std::remove(csv.c_str());
    std::printf("variant [%s]: %d cubins, %.3f s a cubin (%.2f cubins/s in one process)\n", variant.c_str(), compiled,
                wall / compiled, compiled / wall);
    for (const auto& [phase, ms] : phases) std::printf("  %-40s %9.1f ms a cubin\n", phase.c_str(), ms / compiled);
  }
  return 0;
}

#include "nvrtc_compiler.hpp"

#include <nvrtc.h>

#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "error.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "kernel_sources.hpp"
#include "staged_copy.h"
#include "tiny_scan.h"

namespace gemmtune {
namespace {

const std::vector<std::string> kOptions = {"-std=c++17", "--ptxas-options=-v"};

// Owns one nvrtcProgram; the stages of a compile are its methods.
class NvrtcProgram {
 public:
  // `source` may include every embedded file and `own_file` (a family's own source, if any).
  NvrtcProgram(const std::string& source, const std::string& name, const std::string& instantiation,
               const std::optional<EmbeddedFile>& own_file)
      : instantiation_(instantiation) {
    std::vector<const char*> header_texts;
    std::vector<const char*> header_names;
    for (const EmbeddedFile& file : embedded_kernel_files()) {
      header_names.push_back(file.name.data());  // embedded texts and names are NUL-terminated
      header_texts.push_back(file.text.data());
    }
    if (own_file) {  // a family's text is a view of unknown ending: NUL-terminated copies
      own_name_ = own_file->name;
      own_text_ = own_file->text;
      header_names.push_back(own_name_.c_str());
      header_texts.push_back(own_text_.c_str());
    }
    check(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(),
                             static_cast<int>(header_texts.size()), header_texts.data(),
                             header_names.data()),
          "nvrtcCreateProgram");
  }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  ~NvrtcProgram() { nvrtcDestroyProgram(&program_); }

  void add_name_expression() {
    check(nvrtcAddNameExpression(program_, instantiation_.c_str()), "nvrtcAddNameExpression");
  }

  // Returns the log; throws NvrtcError with the log when compilation fails.
  std::string compile(const std::vector<std::string>& options) {
    std::vector<const char*> argv;
    for (const std::string& option : options) argv.push_back(option.c_str());
    const nvrtcResult result = nvrtcCompileProgram(program_, static_cast<int>(argv.size()), argv.data());
    std::string text = log();
    if (result != NVRTC_SUCCESS) throw NvrtcError(result, "nvrtcCompileProgram", instantiation_, text, std::source_location::current());
    return text;
  }

  std::string lowered_name() {
    const char* lowered = nullptr;
    check(nvrtcGetLoweredName(program_, instantiation_.c_str(), &lowered), "nvrtcGetLoweredName");
    return lowered;
  }

  std::vector<char> cubin() {
    std::size_t size = 0;
    check(nvrtcGetCUBINSize(program_, &size), "nvrtcGetCUBINSize");
    std::vector<char> bytes(size);
    check(nvrtcGetCUBIN(program_, bytes.data()), "nvrtcGetCUBIN");
    return bytes;
  }

 private:
  std::string log() {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (nvrtcGetProgramLog(program_, text.data()) != NVRTC_SUCCESS) return {};
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
    return text;
  }

  void check(nvrtcResult result, const char* call,
             std::source_location where = std::source_location::current()) {
    if (result != NVRTC_SUCCESS) throw NvrtcError(result, call, instantiation_, log(), where);
  }

  std::string instantiation_;
  std::string own_name_;
  std::string own_text_;
  nvrtcProgram program_ = nullptr;
};

// The family's own source file, for a family that is not one of the embedded templates.
std::optional<EmbeddedFile> own_file(const KernelFamily& family) {
  if (family.source_text().empty()) return std::nullopt;
  return EmbeddedFile{family.source_file(), family.source_text()};
}

// The NVRTC steps every compile shares: `source` compiled for `target` with kOptions, and
// `name_expression` lowered. kernel_name and arch are the caller's to fill in.
CompiledKernel compile_program(const std::string& source, const std::string& program_name,
                               const std::string& name_expression, const std::string& target,
                               const std::optional<EmbeddedFile>& extra_file,
                               const std::vector<std::string>& extra_options = {}) {
  CompiledKernel compiled;
  compiled.instantiation = name_expression;
  NvrtcProgram program(source, program_name, name_expression, extra_file);
  program.add_name_expression();
  std::vector<std::string> options = kOptions;
  options.push_back("--gpu-architecture=" + target);
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  compiled.log = program.compile(options);
  compiled.lowered_name = program.lowered_name();
  compiled.cubin = program.cubin();
  compiled.resources = parse_ptxas_report(compiled.log, compiled.lowered_name);
  return compiled;
}

int match_int(const std::string& log, const char* pattern) {
  std::smatch match;
  if (std::regex_search(log, match, std::regex(pattern))) return std::stoi(match[1].str());
  return -1;
}

// "8192 B smem" or "unknown smem" for a figure ResourceUsage holds as -1.
std::string figure(int value, const char* unit, const char* what) {
  return (value < 0 ? std::string("unknown") : std::to_string(value) + unit) + " " + what;
}

}  // namespace

void keep_ptxas_reports() { ::setenv("CUDA_CACHE_DISABLE", "1", 1); }

namespace {

// The part of a ptxas log about one kernel: from its "Compiling entry function 'NAME'" line to the
// next such line. The log of a cubin with helper kernels has a section each.
struct EntrySection {
  std::string_view function;
  std::string_view text;
};

std::vector<EntrySection> entry_sections(std::string_view log) {
  static constexpr std::string_view kMarker = "Compiling entry function '";
  std::vector<EntrySection> sections;
  std::size_t at = log.find(kMarker);
  while (at != std::string_view::npos) {
    const std::size_t name_begin = at + kMarker.size();
    const std::size_t name_end = log.find('\'', name_begin);
    if (name_end == std::string_view::npos) break;
    const std::size_t next = log.find(kMarker, name_end);
    sections.push_back({log.substr(name_begin, name_end - name_begin),
                        log.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at)});
    at = next;
  }
  return sections;
}

bool is_helper_kernel(std::string_view function) {
  return function == kStagedCopyKernelName || function == kTinyScanKernelName;
}

// The GEMM kernel's section of `log` (parse_ptxas_report says which); the whole log where it has
// no sections (a report of one kernel, or none).
std::string gemm_kernel_report(const std::string& log, std::string_view entry) {
  const std::vector<EntrySection> sections = entry_sections(log);
  if (!entry.empty()) {
    for (const EntrySection& section : sections) {
      if (section.function == entry) return std::string(section.text);
    }
  }
  for (const EntrySection& section : sections) {
    if (!is_helper_kernel(section.function)) return std::string(section.text);
  }
  return log;
}

}  // namespace

ResourceUsage parse_ptxas_report(const std::string& whole_log, std::string_view entry) {
  const std::string log = gemm_kernel_report(whole_log, entry);
  ResourceUsage usage;
  usage.registers = match_int(log, R"(Used (\d+) registers)");
  usage.static_smem_bytes = match_int(log, R"((\d+) bytes smem)");
  // ptxas names shared memory only where a kernel declares some: with its report there, none is 0.
  if (usage.static_smem_bytes < 0 && usage.registers >= 0) usage.static_smem_bytes = 0;
  usage.stack_frame_bytes = match_int(log, R"((\d+) bytes stack frame)");
  usage.spill_store_bytes = match_int(log, R"((\d+) bytes spill stores)");
  usage.spill_load_bytes = match_int(log, R"((\d+) bytes spill loads)");
  return usage;
}

std::string to_string(const ResourceUsage& usage) {
  return figure(usage.registers, "", "registers") + ", " + figure(usage.static_smem_bytes, " B", "static smem") + ", " +
         figure(usage.stack_frame_bytes, " B", "stack") + ", " + figure(usage.spill_store_bytes, " B", "spill stores") +
         ", " + figure(usage.spill_load_bytes, " B", "spill loads");
}

std::string source_hash(const KernelFamily& family) {
  const std::optional<EmbeddedFile> own = own_file(family);
  return own ? kernel_sources_hash({&*own, 1}) : kernel_sources_hash();
}

std::string nvrtc_compile_options() {
  std::string text;
  for (const std::string& option : kOptions) text += (text.empty() ? "" : " ") + option;
  return text;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_supported_archs() {
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS) return {};
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
  std::vector<std::string> names;
  for (int arch : archs) names.push_back("sm_" + std::to_string(arch));
  return names;
}

void require_supported_arch(const std::string& arch) {
  const std::vector<std::string> supported = nvrtc_supported_archs();
  // NVRTC lists the base archs only; "sm_90a" (its arch-specific features) comes with "sm_90".
  const std::string base = !arch.empty() && arch.back() == 'a' ? arch.substr(0, arch.size() - 1) : arch;
  std::string list;
  for (const std::string& name : supported) {
    if (name == base) return;
    list += (list.empty() ? "" : ", ") + name;
  }
  throw std::invalid_argument("NVRTC " + nvrtc_version() + " cannot compile for arch '" + arch +
                              "' (supported: " + list + ")");
}

CompiledKernel compile_kernel(const KernelConfig& config, const std::string& arch,
                              const std::vector<std::string>& extra_options) {
  const KernelFamily& family = find_family(config.family);
  if (auto reason = family.check(config)) {
    throw std::invalid_argument("refused " + kernel_name(config) + ": " + *reason);
  }
  const std::optional<std::string> target = family.compile_arch(arch);
  if (!target) {
    throw std::invalid_argument("refused " + kernel_name(config) + ": family " + std::string(family.name()) +
                                " does not run on " + arch + " GPUs");
  }
  require_supported_arch(*target);

  const std::string source = "#include \"" + std::string(family.source_file()) + "\"\n";
  CompiledKernel compiled =
      compile_program(source, kernel_name(config) + ".cu", family.instantiation(config), *target, own_file(family),
                      extra_options);
  compiled.kernel_name = kernel_name(config);
  compiled.arch = arch;
  return compiled;
}

CompiledKernel compile_source(const std::string& source, const std::string& program_name,
                              const std::string& name_expression, const std::string& target) {
  require_supported_arch(target);
  CompiledKernel compiled = compile_program(source, program_name, name_expression, target, std::nullopt);
  compiled.kernel_name = program_name;
  compiled.arch = target;
  return compiled;
}

}  // namespace gemmtune

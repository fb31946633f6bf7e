// Opens a tuning database through the installed package, as a user's program would.
//
//   consumer DB
//
// Untuned machines are allowed (default kernels), so with a GPU it opens whatever DB is; without
// one it gets NoDevice. Prints one line saying which; exits 0 in both cases, 1 on anything else.
#include <gemmtune/runtime.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer DB\n");
    return 1;
  }
  gemmtune::RuntimeOptions options;
  options.allow_untuned = true;
  gemmtune::Runtime runtime;
  const gemmtune::Status status = gemmtune::Runtime::open(runtime, argv[1], options);
  if (status == gemmtune::Status::Success) {
    std::printf("consumer: opened %s\n", runtime.describe().c_str());
    return 0;
  }
  const char* verdict = status == gemmtune::Status::NoDevice ? "no GPU" : "failed";
  std::printf("consumer: %s (%s): %s\n", verdict, gemmtune::to_string(status), gemmtune::last_error().c_str());
  return status == gemmtune::Status::NoDevice ? 0 : 1;
}

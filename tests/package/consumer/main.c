/* Opens a tuning database through the C API of the installed libgemmtune.so, as a C program
 * would (built once with find_package(gemmtune) and gemmtune::shared, once with pkg-config).
 *
 *   consumer_c DB
 *
 * Untuned machines are allowed, so with a GPU it opens whatever DB is; without one it gets
 * NO_DEVICE. Prints one line saying which; exits 0 in both cases, 1 on anything else. */
#include <gemmtune/gemmtune.h>

#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer_c DB\n");
    return 1;
  }
  gemmtune_runtime_options options = {0, 1, 0};
  gemmtune_runtime* runtime = NULL;
  const gemmtune_status status = gemmtune_runtime_open(&runtime, argv[1], &options);
  if (status == GEMMTUNE_STATUS_SUCCESS) {
    printf("consumer_c: opened a runtime\n");
    gemmtune_runtime_close(runtime);
    return 0;
  }
  const int no_gpu = status == GEMMTUNE_STATUS_NO_DEVICE;
  printf("consumer_c: %s (%s): %s\n", no_gpu ? "no GPU" : "failed", gemmtune_status_name(status),
         gemmtune_last_error());
  return no_gpu ? 0 : 1;
}

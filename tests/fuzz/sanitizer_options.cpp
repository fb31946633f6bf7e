// UBSan's defaults in every fuzzer: undefined behaviour is fatal (libFuzzer then saves the input),
// except the known findings listed in known_ub.supp. UBSAN_OPTIONS still overrides them.
extern "C" const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:suppressions=" GEMMTUNE_UBSAN_SUPPRESSIONS;
}

// The fixture of the selection tests: a tuning database in a temporary file, and select_kernel
// over its winners for a made-up GPU.
#pragma once

#include "dispatch_test_support.hpp"
#include "row_major_call.hpp"
#include "select_kernel.hpp"
#include "tuning_table.hpp"

namespace gemmtune::dispatch::test {

struct SelectionFixture {
  cache::test::TempDir dir;
  cache::Database db = cache::Database::open(dir.file("tuned.db"), cache::OpenMode::ReadWrite);

  Choice select_with(const SgemmCall& call, const SelectionPolicy& policy, const cache::GpuKey& gpu = fake_gpu()) const {
    return select_kernel(TuningTable(db.all_winners(), gpu), to_row_major(call),
                         DeviceTraits{gpu.sm_count, gpu.cc_major * 10 + gpu.cc_minor}, policy);
  }
};

}  // namespace gemmtune::dispatch::test

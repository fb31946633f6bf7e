// Worker processes and the compile pool: messages travel, a dying or hanging child is noticed
// and replaced, and compilation in several processes gives the same cubins as in one.
#include <catch2/catch.hpp>

#include <csignal>
#include <thread>

#include "compile_pool.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "worker_process.hpp"

namespace gemmtune::tuner {
namespace {

// Workers and this process compare ptxas's reports, which a compute cache would withhold (tune
// turns it off the same way, before it forks its workers).
[[maybe_unused]] const bool reports_kept = (keep_ptxas_reports(), true);

}  // namespace

TEST_CASE("a worker process answers messages, binary blobs included", "[workers]") {
  WorkerProcess echo("echo", [](const MessageChannel& channel) {
    while (true) {
      const Message request = *channel.receive(std::nullopt);
      if (request.contains("stop")) return 0;
      channel.send({{"echo", request}});
    }
  });
  const Message sent{{"text", "hello"}, {"blob", Message::binary({0, 1, 2, 255})}};
  echo.channel().send(sent);
  const std::optional<Message> reply = echo.channel().receive(std::chrono::seconds(10));
  REQUIRE(reply);
  CHECK(reply->at("echo") == sent);
  CHECK(reply->at("echo").at("blob").get_binary().size() == 4);
  echo.channel().send({{"stop", true}});
  CHECK(echo.exit_description() == "exit code 0");
}

TEST_CASE("a worker that dies is reported with its signal, not a hang", "[workers]") {
  WorkerProcess crasher("crasher", [](const MessageChannel& channel) {
    channel.receive(std::nullopt);
    std::raise(SIGSEGV);
    return 0;
  });
  crasher.channel().send({{"go", true}});
  CHECK_THROWS_AS(crasher.channel().receive(std::chrono::seconds(10)), WorkerDied);
  CHECK(crasher.exit_description().find("signal 11") != std::string::npos);
}

TEST_CASE("a worker that hangs times out and can be killed", "[workers]") {
  WorkerProcess sleeper("sleeper", [](const MessageChannel& channel) {
    channel.receive(std::nullopt);
    std::this_thread::sleep_for(std::chrono::hours(1));
    return 0;
  });
  sleeper.channel().send({{"go", true}});
  const auto started = std::chrono::steady_clock::now();
  CHECK_FALSE(sleeper.channel().receive(std::chrono::milliseconds(300)));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  sleeper.kill();
  CHECK(sleeper.exit_description() == "already reaped");
}

TEST_CASE("the compile pool compiles in parallel processes what compile_kernel compiles alone", "[workers][nvrtc]") {
  CompilePool pool(2, "sm_90");
  std::vector<KernelConfig> configs;
  for (const char* family : {"reg1d", "reg2d", "vectorized"}) configs.push_back(find_family(family).default_config());
  configs.push_back(find_family("reg2d").default_config(Layout::TT));
  std::size_t next = 0;
  std::vector<CompileOutcome> outcomes;
  while (outcomes.size() < configs.size()) {
    while (next < configs.size() && pool.has_idle_worker()) pool.submit(configs[next++]);
    CHECK(pool.in_flight() <= 2);
    for (CompileOutcome& outcome : pool.collect(std::chrono::seconds(30))) outcomes.push_back(std::move(outcome));
  }
  CHECK(pool.compiled_count() == configs.size());
  for (const CompileOutcome& outcome : outcomes) {
    INFO(kernel_name(outcome.config) << ": " << outcome.error);
    REQUIRE(outcome.compiled);
    const CompiledKernel alone = compile_kernel(outcome.config, "sm_90");
    CHECK(outcome.compiled->cubin == alone.cubin);
    CHECK(outcome.compiled->lowered_name == alone.lowered_name);
    // ptxas's report may be missing from one of the logs (see test_compile.cpp); where both
    // have it, it agrees.
    if (!outcome.compiled->log.empty() && !alone.log.empty()) {
      CHECK(outcome.compiled->resources.registers == alone.resources.registers);
    }
  }
}

TEST_CASE("the compile pool reports a refused configuration as a failed outcome and goes on", "[workers][nvrtc]") {
  CompilePool pool(1, "sm_90");
  KernelConfig bad = find_family("reg2d").default_config();
  bad.set("TM", 3);
  pool.submit(bad);
  std::vector<CompileOutcome> outcomes = pool.collect(std::chrono::seconds(30));
  REQUIRE(outcomes.size() == 1);
  CHECK_FALSE(outcomes[0].compiled);
  CHECK(outcomes[0].error.find("multiples of TM and TN") != std::string::npos);
  pool.submit(find_family("reg2d").default_config());
  outcomes = pool.collect(std::chrono::seconds(30));
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].compiled);
}

TEST_CASE("the compile pool refuses an arch NVRTC does not know before starting", "[workers][nvrtc]") {
  CHECK_THROWS_WITH(CompilePool(1, "sm_13"), Catch::Contains("cannot compile for arch 'sm_13'"));
}

}  // namespace gemmtune::tuner

// One Catch2 test case a kernel family, named "TITLE: FAMILY", for every family the registry holds
// when the test program starts: a new family gets its test cases without a line in any test, and
// ctest runs them side by side. Use at namespace scope:
//
//   const FamilyTestCases compiles("compiles for every arch it runs on", "[nvrtc]",
//                                  [](const KernelFamily& family) { ... });
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "family_registry.hpp"

namespace gemmtune::testing {

class FamilyTestCases {
 public:
  using Body = std::function<void(const KernelFamily&)>;

  FamilyTestCases(const std::string& title, const std::string& tags, Body body,
                  Catch::SourceLineInfo where = CATCH_INTERNAL_LINEINFO) {
    for (const KernelFamily* family : all_families()) {
      covered_.push_back(family);
      // Catch keeps the names' and tags' addresses: they live as long as the program.
      names().push_back(title + ": " + std::string(family->name()));
      names().push_back(tags);
      const std::string& name = names()[names().size() - 2];
      const std::string& tag_text = names().back();
      Catch::AutoReg(new Invoker(*family, body), where, Catch::StringRef(),
                     Catch::NameAndTags(Catch::StringRef(name), Catch::StringRef(tag_text)));
    }
  }

  // Whether `family` has its test case (it was registered before the program started).
  bool covers(const KernelFamily& family) const {
    return std::find(covered_.begin(), covered_.end(), &family) != covered_.end();
  }

 private:
  class Invoker final : public Catch::ITestInvoker {
   public:
    Invoker(const KernelFamily& family, Body body) : family_(family), body_(std::move(body)) {}
    void invoke() const override { body_(family_); }

   private:
    const KernelFamily& family_;
    Body body_;
  };

  static std::deque<std::string>& names() {
    static std::deque<std::string> all;
    return all;
  }

  std::vector<const KernelFamily*> covered_;
};

}  // namespace gemmtune::testing

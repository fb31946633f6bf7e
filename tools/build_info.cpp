#include "build_info.hpp"

#include <cstdlib>
#include <ctime>

namespace gemmtune {

std::string build_commit() {
  if (const char* commit = std::getenv("GEMMTUNE_COMMIT"); commit != nullptr && *commit != '\0') return commit;
  return GEMMTUNE_GIT_COMMIT;
}

std::string utc_date_time() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

}  // namespace gemmtune

// This test process's memory as the kernel counts it (/proc/self/status), for tests that bound
// what an operation adds to the peak.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace ge::testing {

/// A line of /proc/self/status ("VmRSS", "VmHWM") in bytes.
inline int64_t ProcStatusBytes(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::stoll(line.substr(key.size() + 1)) * 1024;
  }
  ADD_FAILURE() << key << " is not in /proc/self/status";
  return 0;
}

/// Starts the peak (VmHWM) again from the current resident size.
inline void ResetPeakResident() {
  std::ofstream reset("/proc/self/clear_refs");
  reset << "5";
}

}  // namespace ge::testing

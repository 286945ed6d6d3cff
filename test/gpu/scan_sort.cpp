// GPU suite: issue 18's scans and sorts against std:: (test/algorithm/
// ScanSortChecks.h): inclusive_scan and exclusive_scan, sort, sort_by_key and
// sort(comp), over sizes 0 to 2^20+7, every type and operator of the lit
// tests at every size (MSTAGE_SUITE_QUICK: the large size for a few only).
// On the GPU the tiles' look-backs really run concurrently; racecheck and
// memcheck should find nothing.
#include "../algorithm/ScanSortChecks.h"
#include "SuiteMain.h"

#include <cstdlib>

static int run() {
  if (skipWithoutGpu("scan_sort"))
    return 0;
  bool Quick = std::getenv("MSTAGE_SUITE_QUICK") != nullptr;
  int Status = runScanChecks("scan_sort scans", Quick);
  Status |= runSortChecks("scan_sort sorts", Quick);
  std::printf("%s scan_sort\n", Status ? "FAIL" : "PASS");
  return Status;
}

int main() { return runSuiteProgram("scan_sort", run); }

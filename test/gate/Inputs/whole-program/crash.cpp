// clang-tidy writes no summary of this file (a parse failure that stopped it, a crash).
int crash_source;
FACT-NONE

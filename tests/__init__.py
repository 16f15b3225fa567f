"""The test suite: one folder per folder of xwcp/ (tests/engine/ tests xwcp/engine/); whole-project tests in
project/."""
